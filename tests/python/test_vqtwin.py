"""The Python module against the CLI, bit for bit: vqtwin.score on files and vqtwin.Session on numpy planes
(parsed here from the y4m files, not by vqtwin) give the same doubles as `vqtwin --json --precision max`.
Run by ctest with PYTHONPATH=<build>/python, VQTWIN_CLI and VQTWIN_FIXTURES set."""
import json
import os
import subprocess

import numpy as np
import pytest

import vqtwin

CLI = os.environ["VQTWIN_CLI"]
FIXTURES = os.environ["VQTWIN_FIXTURES"]


def fixture(pair, which):
    return os.path.join(FIXTURES, f"{pair}_{which}.y4m")


def cli_json(ref, dist, *args):
    out = subprocess.run([CLI, "-r", ref, "-d", dist, "-q", "--json", "--precision", "max", *args],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def y4m_frames(path):
    """(Y, Cb, Cr) numpy planes of each frame of a 4:2:0 y4m file (8-bit: uint8, 10-bit: uint16)."""
    data = open(path, "rb").read()
    end = data.index(b"\n")
    tags = {t[:1]: t[1:] for t in data[:end].decode().split()[1:]}
    w, h = int(tags["W"]), int(tags["H"])
    dtype = np.uint16 if "p10" in tags.get("C", "420") else np.uint8
    size = np.dtype(dtype).itemsize
    shapes = [(h, w), ((h + 1) // 2, (w + 1) // 2), ((h + 1) // 2, (w + 1) // 2)]
    pos, frames = end + 1, []
    while pos < len(data):
        pos = data.index(b"\n", pos) + 1
        planes = []
        for shape in shapes:
            n = shape[0] * shape[1] * size
            planes.append(np.frombuffer(data[pos:pos + n], dtype=dtype).reshape(shape))
            pos += n
        frames.append(planes)
    return w, h, frames


def same(ours, cli):
    """Every per-frame and pooled value equal bit for bit, names in the CLI's order."""
    assert len(ours["frames"]) == len(cli["frames"])
    for a, b in zip(ours["frames"], cli["frames"]):
        assert a["frameNum"] == b["frameNum"]
        assert list(a["metrics"].items()) == list(b["metrics"].items())
    assert list(ours["pooled"].items()) == list(cli["pooled_metrics"].items())
    assert ours["aggregate"] == cli.get("aggregate_metrics", {})


def test_score_files_equals_the_cli():
    ref, dist = fixture("sd_576x324_8bit_420", "ref"), fixture("sd_576x324_8bit_420", "dist")
    ours = vqtwin.score(ref, dist, model="vmaf_v0.6.1", features=["psnr=enable_apsnr=true"], threads=2)
    same(ours, cli_json(ref, dist, "--model", "version=vmaf_v0.6.1", "--feature", "psnr=enable_apsnr=true",
                        "--threads", "2"))
    assert ours["scores"] == ["vmaf"]
    assert (ours["width"], ours["height"]) == (576, 324)


def test_session_from_numpy_equals_the_cli():
    ref, dist = fixture("sd_576x324_8bit_420", "ref"), fixture("sd_576x324_8bit_420", "dist")
    w, h, ref_frames = y4m_frames(ref)
    _, _, dist_frames = y4m_frames(dist)
    s = vqtwin.Session(w, h, bitdepth=8, chroma="420", features=["float_ssim"], threads=2)
    for i, (r, d) in enumerate(zip(ref_frames, dist_frames)):
        # Every other frame through a strided view (a column slice), which must be read row by row.
        if i % 2:
            r = [np.pad(p, ((0, 0), (0, 5)))[:, :p.shape[1]] for p in r]
        assert s.push(r, d) == i
    same(s.finish(), cli_json(ref, dist, "--feature", "float_ssim", "--threads", "2"))


def test_session_ten_bit_equals_the_cli():
    ref, dist = fixture("hd_1280x720_10bit_420", "ref"), fixture("hd_1280x720_10bit_420", "dist")
    w, h, ref_frames = y4m_frames(ref)
    _, _, dist_frames = y4m_frames(dist)
    s = vqtwin.Session(w, h, bitdepth=10, no_prediction=True, features=["psnr"], threads=2)
    for r, d in zip(ref_frames[:6], dist_frames[:6]):
        s.push(r, d)
    same(s.finish(), cli_json(ref, dist, "--no_prediction", "--feature", "psnr", "--frame_cnt", "6"))


def test_errors_are_vqtwin_errors():
    with pytest.raises(vqtwin.Error, match="unknown feature"):
        vqtwin.Session(64, 48, features=["no_such_feature"])
    with pytest.raises(vqtwin.Error, match="nonexistent"):
        vqtwin.score("/nonexistent.y4m", "/nonexistent.y4m")
    s = vqtwin.Session(64, 48, no_prediction=True, features=["psnr"])
    y, c = np.zeros((48, 64), np.uint8), np.zeros((24, 32), np.uint8)
    with pytest.raises(vqtwin.Error, match="uint8"):
        s.push((y.astype(np.uint16), c, c), (y, c, c))
    with pytest.raises(vqtwin.Error, match="shape"):
        s.push((y[:10], c, c), (y, c, c))
    with pytest.raises(vqtwin.Error, match="3 planes"):
        s.push((y,), (y, c, c))
    assert s.push((y, c, c), (y, c, c)) == 0
    r = s.finish()
    assert r["frames"][0]["metrics"]["psnr_y"] == 60.0
    with pytest.raises(vqtwin.Error, match="finished"):
        s.push((y, c, c), (y, c, c))


def test_c_api_through_ctypes():
    """The C API needs no binding: libvqtwin.so through ctypes gives the CLI's VMAF, and its errors."""
    import ctypes
    lib = ctypes.CDLL(os.environ["VQTWIN_LIB"])
    lib.vqtwin_config_new.restype = ctypes.c_void_p
    lib.vqtwin_last_error.restype = ctypes.c_char_p
    lib.vqtwin_version.restype = ctypes.c_char_p
    for f in ("vqtwin_config_add_feature", "vqtwin_run_files", "vqtwin_results_pooled", "vqtwin_results_free",
              "vqtwin_config_free"):
        getattr(lib, f).argtypes = None
    config = ctypes.c_void_p(lib.vqtwin_config_new())
    assert lib.vqtwin_config_add_feature(config, b"psnr") == 0
    results = ctypes.c_void_p()
    ref, dist = fixture("sd_576x324_8bit_420", "ref"), fixture("sd_576x324_8bit_420", "dist")
    assert lib.vqtwin_run_files(config, ref.encode(), dist.encode(), ctypes.byref(results)) == 0, \
        lib.vqtwin_last_error()
    value = ctypes.c_double()
    assert lib.vqtwin_results_pooled(results, b"vmaf", b"mean", ctypes.byref(value)) == 0
    cli = cli_json(ref, dist, "--feature", "psnr")
    assert value.value == cli["pooled_metrics"]["vmaf"]["mean"]
    assert lib.vqtwin_results_pooled(results, b"vmaf", b"median", ctypes.byref(value)) == 1  # ARGUMENT
    assert b"median" in lib.vqtwin_last_error()
    assert lib.vqtwin_version().decode() == vqtwin.version()
    lib.vqtwin_results_free(results)
    lib.vqtwin_config_free(config)
