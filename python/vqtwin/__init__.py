"""vqtwin: libvmaf's video-quality metrics (VMAF, PSNR, SSIM, ...), bit for bit.

    import vqtwin
    r = vqtwin.score("ref.mkv", "dist.mp4", model="vmaf_v0.6.1", features=["psnr"])
    r["pooled"]["vmaf"]["mean"], r["frames"][0]["metrics"]["psnr_y"]

    s = vqtwin.Session(1920, 1080, bitdepth=8, chroma="420", features=["psnr"])
    s.push((y, u, v), (y2, u2, v2))      # numpy uint8 (8-bit) or uint16 planes, copied
    r = s.finish()

Results have the vmaf CLI's JSON layout ("frames", "pooled", "aggregate"), plus "scores" (the model
scores' names), "receipt" ((name, implementation) pairs) and the picture size; the numbers are the CLI's
bit for bit. Errors raise vqtwin.Error (a ValueError) with the CLI's one-line message.
"""
from ._vqtwin import Error, version
from . import _vqtwin

__all__ = ["score", "Session", "Error", "version"]


def _models(model):
    """'vmaf_v0.6.1' -> 'version=vmaf_v0.6.1'; texts with '=' ('path=m.json:name=x') as they are."""
    if model is None:
        return []
    if isinstance(model, str):
        model = [model]
    return [m if "=" in m else "version=" + m for m in model]


def _settings(model, features, no_prediction, backend, threads, subsample, pools):
    s = _vqtwin.Settings()
    s.models = _models(model)
    s.features = [features] if isinstance(features, str) else list(features or [])
    s.no_prediction = bool(no_prediction)
    s.backend = backend
    s.threads = int(threads)
    s.subsample = int(subsample)
    s.pools = list(pools or [])
    return s


def score(reference, distorted, model=None, features=(), no_prediction=False, backend="cpu", threads=0,
          subsample=1, pools=(), **inputs):
    """Scores two files (y4m, raw yuv with width/height/pixel_format/bitdepth, or any video FFmpeg
    decodes) as the CLI does. `model`: a name or a list ('vmaf_v0.6.1', 'path=m.json'); default VMAF unless
    no_prediction. `inputs`: scale, sync, common_bitdepth, frame_cnt, frame_skip_ref, frame_skip_dist and
    the raw-yuv settings."""
    s = _settings(model, features, no_prediction, backend, threads, subsample, pools)
    extra = [(k, ("true" if v else "false") if isinstance(v, bool) else str(v)) for k, v in inputs.items()]
    return _vqtwin.score_files(str(reference), str(distorted), s, extra)


class Session:
    """Frames from memory: push (reference, distorted) pairs of numpy planes, then finish()."""

    def __init__(self, width, height, bitdepth=8, chroma="420", model=None, features=(), no_prediction=False,
                 backend="cpu", threads=0, subsample=1, pools=()):
        s = _settings(model, features, no_prediction, backend, threads, subsample, pools)
        self._session = _vqtwin.Session(int(width), int(height), int(bitdepth), str(chroma), s)

    def push(self, reference, distorted):
        """Each picture: a sequence of planes (Y, Cb, Cr; Y alone for 4:0:0). Returns the frame index."""
        return self._session.push(list(reference), list(distorted))

    def finish(self):
        return self._session.finish()
