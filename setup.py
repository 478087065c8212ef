"""pip install for the Python module: `python3 -m pip install --no-build-isolation .` builds the extension
vqtwin._vqtwin with CMake (Debian's pybind11-dev and python3-dev; nothing is downloaded) and installs it
with python/vqtwin/__init__.py. VQTWIN_BUILD_DIR=DIR reuses a configured build folder instead of a fresh
one (then only the target _vqtwin is built there)."""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("VQTWIN_BUILD_DIR") or os.path.join(os.path.abspath(self.build_temp), "cmake")
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                                   "-DVQTWIN_PYTHON=ON", "-DVQTWIN_TESTS=OFF", "-DVQTWIN_BENCH=OFF",
                                   "-DVQTWIN_INSTALL=OFF", "-DPython3_EXECUTABLE=" + sys.executable])
        subprocess.check_call(["cmake", "--build", build, "--target", "_vqtwin"])
        built = glob.glob(os.path.join(build, "python", "vqtwin", "_vqtwin*.so"))
        if len(built) != 1:
            raise RuntimeError("the CMake build made no single _vqtwin module: %r" % built)
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    name="vqtwin",
    version="0.1.0",
    description="libvmaf's video-quality metrics (VMAF, PSNR, SSIM, ...) bit for bit",
    packages=["vqtwin"],
    package_dir={"": "python"},
    ext_modules=[CMakeExtension("vqtwin._vqtwin")],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
    install_requires=[],
    zip_safe=False,
)
