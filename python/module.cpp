// vqtwin._vqtwin: the C++ API for Python (pybind11). Results come back as the CLI's JSON schema in Python
// objects ({"frames": [{"frameNum", "metrics"}], "pooled", "aggregate"}), the doubles unchanged, so
// they equal the CLI's --json --precision max output bit for bit. python/vqtwin/__init__.py wraps it.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vqtwin/error.hpp"
#include "vqtwin/run.hpp"
#include "vqtwin/session.hpp"

namespace py = pybind11;

namespace {

// Settings as the Python layer passes them (already normalised: model texts, feature texts).
struct Settings {
  std::vector<std::string> features, models;
  bool no_prediction = false;
  std::string backend = "cpu";
  unsigned threads = 0, subsample = 1;
  std::vector<std::string> pools;
};

void apply(const Settings& s, vqtwin::SessionConfig& c) {
  c.features = s.features;
  c.models = s.models;
  c.no_prediction = s.no_prediction;
  const auto b = vqtwin::parse_backend(s.backend);
  if (!b) throw vqtwin::Error("backend must be cpu, cuda, vulkan or auto, not '" + s.backend + "'");
  c.backend = *b;
  c.threads = s.threads;
  c.subsample = s.subsample;
}

std::vector<vqtwin::Pooling> pools_of(const std::vector<std::string>& names) {
  std::vector<vqtwin::Pooling> out;
  for (const auto& n : names) {
    const auto p = vqtwin::Pooling::parse(n);
    if (!p) throw vqtwin::Error("unknown pooling method '" + n + "' (min, max, mean, harmonic_mean, percN)");
    out.push_back(*p);
  }
  if (out.empty())
    out = {{vqtwin::PoolMethod::kMin}, {vqtwin::PoolMethod::kMax}, {vqtwin::PoolMethod::kMean},
           {vqtwin::PoolMethod::kHarmonicMean}};
  return out;
}

// The results as the JSON writer lays them out: frames of the pooling range, every name that has a value.
py::dict to_python(const vqtwin::Results& r, const Settings& s) {
  const std::vector<std::string> names = r.names();
  const unsigned n = r.frames ? r.frames : r.frame_count();
  py::list frames;
  for (unsigned i = 0; i < n; ++i) {
    if (s.subsample > 1 && i % s.subsample) continue;
    py::dict metrics;
    for (const auto& name : names)
      if (auto v = r.value(name, i)) metrics[py::str(name)] = *v;
    py::dict frame;
    frame["frameNum"] = i;
    frame["metrics"] = metrics;
    frames.append(frame);
  }
  py::dict pooled;
  const auto pools = pools_of(s.pools);
  for (const auto& name : names) {
    py::dict p;
    for (const auto& how : pools)
      if (auto v = r.pooled(name, how, s.subsample)) p[py::str(how.name())] = *v;
    pooled[py::str(name)] = p;
  }
  py::dict aggregate;
  for (const auto& [name, v] : r.aggregates()) aggregate[py::str(name)] = v;
  py::list receipt;
  for (const auto& [name, impl] : r.receipt()) receipt.append(py::make_tuple(name, impl));
  py::dict out;
  out["frames"] = frames;
  out["pooled"] = pooled;
  out["aggregate"] = aggregate;
  out["scores"] = r.scores;
  out["receipt"] = receipt;
  out["width"] = r.width;
  out["height"] = r.height;
  return out;
}

py::dict score_files(const std::string& reference, const std::string& distorted, const Settings& s,
                     const std::vector<std::pair<std::string, std::string>>& extra) {
  vqtwin::RunConfig c;
  apply(s, c);
  c.reference = reference;
  c.distorted = distorted;
  for (const auto& [key, value] : extra) {
    if (key == "width") c.width = std::stoi(value);
    else if (key == "height") c.height = std::stoi(value);
    else if (key == "pixel_format") c.pixel_format = value;
    else if (key == "bitdepth") c.bitdepth = std::stoi(value);
    else if (key == "scale") c.scale = value;
    else if (key == "sync") c.sync = value;
    else if (key == "common_bitdepth") c.common_bitdepth = value == "true";
    else if (key == "frame_cnt") c.frame_cnt = unsigned(std::stoul(value));
    else if (key == "frame_skip_ref") c.frame_skip_ref = unsigned(std::stoul(value));
    else if (key == "frame_skip_dist") c.frame_skip_dist = unsigned(std::stoul(value));
    else throw vqtwin::Error("unknown setting '" + key + "'");
  }
  vqtwin::Results r;
  {
    py::gil_scoped_release release;
    vqtwin::run(c, r);
  }
  return to_python(r, s);
}

vqtwin::ChromaFormat chroma_of(const std::string& text) {
  if (text == "420") return vqtwin::ChromaFormat::k420;
  if (text == "422") return vqtwin::ChromaFormat::k422;
  if (text == "444") return vqtwin::ChromaFormat::k444;
  if (text == "400") return vqtwin::ChromaFormat::k400;
  throw vqtwin::Error("chroma must be 420, 422, 444 or 400, not '" + text + "'");
}

// A session fed with numpy planes: uint8 arrays for 8-bit, uint16 for 9..16-bit, each 2-D of the plane's
// size (any strides along rows; samples contiguous within a row).
class PySession {
 public:
  PySession(int width, int height, int bitdepth, const std::string& chroma, const Settings& s)
      : settings_(s), format_{width, height, bitdepth, chroma_of(chroma)} {
    vqtwin::SessionConfig c;
    apply(s, c);
    session_ = std::make_unique<vqtwin::Session>(c, format_, results_);
  }

  unsigned push(const py::sequence& ref, const py::sequence& dist) {
    if (!session_) throw vqtwin::Error("the session is finished: no more frames can be pushed");
    std::vector<py::array> keep;  // the arrays stay alive (and unconverted) while they are copied
    const vqtwin::PictureView r = view(ref, "reference", keep), d = view(dist, "distorted", keep);
    py::gil_scoped_release release;
    return session_->push(r, d);
  }

  py::dict finish() {
    if (!session_) throw vqtwin::Error("the session is already finished");
    {
      py::gil_scoped_release release;
      session_->finish();
    }
    session_.reset();
    return to_python(results_, settings_);
  }

 private:
  vqtwin::PictureView view(const py::sequence& planes, const char* which, std::vector<py::array>& keep) {
    const int n = format_.num_planes();
    if (int(py::len(planes)) != n)
      throw vqtwin::Error(std::string(which) + ": " + std::to_string(n) + " planes expected, got " +
                          std::to_string(py::len(planes)));
    vqtwin::PictureView v;
    for (int p = 0; p < n; ++p) {
      py::array a = py::reinterpret_borrow<py::object>(planes[std::size_t(p)]);
      const std::size_t want_item = format_.bytes_per_sample();
      const bool dtype_ok = want_item == 1 ? a.dtype().is(py::dtype::of<std::uint8_t>())
                                           : a.dtype().is(py::dtype::of<std::uint16_t>());
      const std::string where = std::string(which) + " plane " + std::to_string(p);
      if (!dtype_ok)
        throw vqtwin::Error(where + ": a " + (want_item == 1 ? "uint8" : "uint16") + " array is needed for " +
                            std::to_string(format_.bitdepth) + "-bit samples");
      if (a.ndim() != 2 || a.shape(0) != format_.plane_height(p) || a.shape(1) != format_.plane_width(p))
        throw vqtwin::Error(where + ": shape (" + std::to_string(format_.plane_height(p)) + ", " +
                            std::to_string(format_.plane_width(p)) + ") expected");
      if (a.strides(1) != py::ssize_t(want_item) || a.strides(0) < py::ssize_t(want_item) * a.shape(1))
        throw vqtwin::Error(where + ": samples must be contiguous within rows (numpy.ascontiguousarray)");
      v.planes[p] = {a.data(), a.strides(0)};
      keep.push_back(a);
    }
    return v;
  }

  Settings settings_;
  vqtwin::PictureFormat format_;
  vqtwin::Results results_;  // declared before the session, which writes into it
  std::unique_ptr<vqtwin::Session> session_;
};

}  // namespace

PYBIND11_MODULE(_vqtwin, m) {
  m.doc() = "vqtwin: libvmaf's video-quality metrics, bit for bit (the C++ API)";
  py::register_exception<vqtwin::Error>(m, "Error", PyExc_ValueError);
  py::class_<Settings>(m, "Settings")
      .def(py::init<>())
      .def_readwrite("features", &Settings::features)
      .def_readwrite("models", &Settings::models)
      .def_readwrite("no_prediction", &Settings::no_prediction)
      .def_readwrite("backend", &Settings::backend)
      .def_readwrite("threads", &Settings::threads)
      .def_readwrite("subsample", &Settings::subsample)
      .def_readwrite("pools", &Settings::pools);
  m.def("score_files", &score_files, py::arg("reference"), py::arg("distorted"), py::arg("settings"),
        py::arg("extra"));
  py::class_<PySession>(m, "Session")
      .def(py::init<int, int, int, const std::string&, const Settings&>())
      .def("push", &PySession::push)
      .def("finish", &PySession::finish);
  m.def("version", [] { return std::string(vqtwin::version()); });
}
