// The C API (include/vqtwin/vqtwin.h) over the C++ one: every call catches every exception and turns it
// into a status code and a thread-local message, so nothing C++ ever crosses the boundary.
#include "vqtwin/vqtwin.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "io/hwdec.hpp"

#include "vqtwin/error.hpp"
#include "vqtwin/output.hpp"
#include "vqtwin/run.hpp"
#include "vqtwin/session.hpp"

struct vqtwin_config {
  vqtwin::RunConfig run;
};

struct vqtwin_results {
  vqtwin::Results results;
  unsigned subsample = 1;
  // Cached so the C strings handed out live as long as the handle.
  std::vector<std::string> names;
  std::vector<std::pair<std::string, std::string>> receipt;
  void cache() {
    names = results.names();
    receipt = results.receipt();
  }
};

struct vqtwin_session {
  // Declared first, destroyed last: the session writes into it.
  std::unique_ptr<vqtwin_results> results;
  std::unique_ptr<vqtwin::Session> session;
};

namespace {

thread_local std::string g_last_error;

// Thrown inside the API for argument errors (the status differs from vqtwin::Error's).
struct ArgumentError {
  std::string message;
};
struct StateError {
  std::string message;
};
struct NotFound {
  std::string message;
};

int fail(int status, std::string message) {
  g_last_error = std::move(message);
  return status;
}

// Runs `body`; any exception becomes a status and the message of vqtwin_last_error().
template <class Body>
int guarded(Body body) {
  try {
    body();
    g_last_error.clear();
    return VQTWIN_OK;
  } catch (const ArgumentError& e) {
    return fail(VQTWIN_ERROR_ARGUMENT, e.message);
  } catch (const StateError& e) {
    return fail(VQTWIN_ERROR_STATE, e.message);
  } catch (const NotFound& e) {
    return fail(VQTWIN_ERROR_NOT_FOUND, e.message);
  } catch (const vqtwin::Error& e) {
    return fail(VQTWIN_ERROR_INPUT, e.what());
  } catch (const std::bad_alloc&) {
    return fail(VQTWIN_ERROR_NO_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(VQTWIN_ERROR_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(VQTWIN_ERROR_INTERNAL, "internal error");
  }
}

void need(const void* p, const char* what) {
  if (!p) throw ArgumentError{std::string(what) + " is NULL"};
}

unsigned long long number(const char* key, const char* text, unsigned long long max) {
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = text[0] == '-' ? 0 : std::strtoull(text, &end, 10);
  if (!text[0] || text[0] == '-' || !end || *end || errno || v > max)
    throw ArgumentError{std::string(key) + " must be a whole number from 0 to " + std::to_string(max) + ", not '" +
                        text + "'"};
  return v;
}

bool boolean(const char* key, const char* text) {
  const std::string t = text;
  if (t == "true" || t == "1") return true;
  if (t == "false" || t == "0") return false;
  throw ArgumentError{std::string(key) + " must be true or false, not '" + t + "'"};
}

void set(vqtwin::RunConfig& r, const std::string& key, const char* value) {
  const char* k = key.c_str();
  if (key == "threads") r.threads = unsigned(number(k, value, 1024));
  else if (key == "subsample") {
    r.subsample = unsigned(number(k, value, 1u << 30));
    if (r.subsample == 0) throw ArgumentError{"subsample must be at least 1"};
  } else if (key == "no_prediction") r.no_prediction = boolean(k, value);
  else if (key == "backend") {
    const auto b = vqtwin::parse_backend(value);
    if (!b) throw ArgumentError{std::string("backend must be cpu, cuda, vulkan or auto, not '") + value + "'"};
    r.backend = *b;
  } else if (key == "gpu") r.gpu = int(number(k, value, 1023));
  else if (key == "hwdec") {
    if (!vqtwin::parse_hwdec(value)) throw ArgumentError{std::string("hwdec must be auto, cuda or none, not '") + value + "'"};
    r.hwdec = value;
  }
  else if (key == "cpumask") {
    errno = 0;
    char* end = nullptr;
    const unsigned long v = std::strtoul(value, &end, 0);  // as libvmaf: decimal, 0x hex, -1 = all
    if (!value[0] || *end || errno) throw ArgumentError{std::string("cpumask must be a bit mask, not '") + value + "'"};
    r.cpumask = unsigned(v);
  } else if (key == "frame_cnt") r.frame_cnt = unsigned(number(k, value, 1u << 31));
  else if (key == "frame_skip_ref") r.frame_skip_ref = unsigned(number(k, value, 1u << 31));
  else if (key == "frame_skip_dist") r.frame_skip_dist = unsigned(number(k, value, 1u << 31));
  else if (key == "scale") r.scale = value;
  else if (key == "sync") r.sync = value;
  else if (key == "common_bitdepth") r.common_bitdepth = boolean(k, value);
  else if (key == "strict_length") r.strict_length = boolean(k, value);
  else if (key == "max_pixels") r.max_pixels = number(k, value, std::uint64_t(1) << 28);
  else if (key == "width") r.width = int(number(k, value, 1 << 16));
  else if (key == "height") r.height = int(number(k, value, 1 << 16));
  else if (key == "pixel_format") r.pixel_format = value;
  else if (key == "bitdepth") r.bitdepth = int(number(k, value, 16));
  else if (key == "aom_ctc" || key == "nflx_ctc") vqtwin::apply_preset(key, value, r);
  else throw ArgumentError{"unknown setting '" + key + "'"};
}

vqtwin::PictureView view(const vqtwin_picture& p) {
  vqtwin::PictureView v;
  for (int i = 0; i < 3; ++i) v.planes[i] = {p.planes[i].data, p.planes[i].stride};
  return v;
}

const vqtwin_results& results_of(const vqtwin_results* r) {
  need(r, "results");
  return *r;
}

}  // namespace

extern "C" {

const char* vqtwin_version(void) { return vqtwin::version(); }
const char* vqtwin_last_error(void) { return g_last_error.c_str(); }

vqtwin_config* vqtwin_config_new(void) {
  vqtwin_config* c = nullptr;
  guarded([&] { c = new vqtwin_config; });
  return c;
}

void vqtwin_config_free(vqtwin_config* config) { delete config; }

int vqtwin_config_add_feature(vqtwin_config* config, const char* feature) {
  return guarded([&] {
    need(config, "config");
    need(feature, "feature");
    config->run.features.emplace_back(feature);
  });
}

int vqtwin_config_add_model(vqtwin_config* config, const char* model) {
  return guarded([&] {
    need(config, "config");
    need(model, "model");
    config->run.models.emplace_back(model);
  });
}

int vqtwin_config_set(vqtwin_config* config, const char* key, const char* value) {
  return guarded([&] {
    need(config, "config");
    need(key, "key");
    need(value, "value");
    set(config->run, key, value);
  });
}

int vqtwin_session_open(const vqtwin_config* config, int width, int height, int bitdepth, int chroma,
                        vqtwin_session** session) {
  return guarded([&] {
    need(config, "config");
    need(session, "session");
    *session = nullptr;
    if (chroma < VQTWIN_CHROMA_420 || chroma > VQTWIN_CHROMA_400)
      throw ArgumentError{"chroma must be a vqtwin_chroma (0..3), not " + std::to_string(chroma)};
    const vqtwin::ChromaFormat formats[] = {vqtwin::ChromaFormat::k420, vqtwin::ChromaFormat::k422,
                                            vqtwin::ChromaFormat::k444, vqtwin::ChromaFormat::k400};
    auto s = std::make_unique<vqtwin_session>();
    s->results = std::make_unique<vqtwin_results>();
    s->results->subsample = config->run.subsample;
    s->session = std::make_unique<vqtwin::Session>(
        config->run, vqtwin::PictureFormat{width, height, bitdepth, formats[chroma]}, s->results->results);
    *session = s.release();
  });
}

int vqtwin_session_push(vqtwin_session* session, const vqtwin_picture* reference, const vqtwin_picture* distorted) {
  return guarded([&] {
    need(session, "session");
    need(reference, "reference");
    need(distorted, "distorted");
    if (!session->session) throw StateError{"the session is finished: no more frames can be pushed"};
    session->session->push(view(*reference), view(*distorted));
  });
}

int vqtwin_session_finish(vqtwin_session* session, vqtwin_results** results) {
  if (results) *results = nullptr;
  return guarded([&] {
    need(session, "session");
    need(results, "results");
    if (!session->session) throw StateError{"the session is already finished"};
    // The results go to the caller whatever finish() throws, when they hold frames (those stay valid).
    auto hand_over = [&](bool always) {
      session->session.reset();
      if (always || session->results->results.frame_count() > 0) {
        session->results->cache();
        *results = session->results.release();
      }
    };
    try {
      session->session->finish();
    } catch (...) {
      hand_over(false);
      throw;
    }
    hand_over(true);
  });
}

void vqtwin_session_free(vqtwin_session* session) { delete session; }

int vqtwin_run_files(const vqtwin_config* config, const char* reference, const char* distorted,
                     vqtwin_results** results) {
  if (results) *results = nullptr;
  return guarded([&] {
    need(config, "config");
    need(reference, "reference");
    need(distorted, "distorted");
    need(results, "results");
    auto r = std::make_unique<vqtwin_results>();
    r->subsample = config->run.subsample;
    vqtwin::RunConfig run = config->run;
    run.reference = reference;
    run.distorted = distorted;
    auto hand_over = [&](bool always) {
      if (always || r->results.frame_count() > 0) {
        r->cache();
        *results = r.release();
      }
    };
    try {
      vqtwin::run(run, r->results);
    } catch (...) {
      hand_over(false);
      throw;
    }
    hand_over(true);
  });
}

void vqtwin_results_free(vqtwin_results* results) { delete results; }

unsigned vqtwin_results_frame_count(const vqtwin_results* results) {
  if (!results) return 0;
  return results->results.frames ? results->results.frames : results->results.frame_count();
}

size_t vqtwin_results_name_count(const vqtwin_results* results) { return results ? results->names.size() : 0; }

const char* vqtwin_results_name(const vqtwin_results* results, size_t i) {
  return results && i < results->names.size() ? results->names[i].c_str() : nullptr;
}

size_t vqtwin_results_score_count(const vqtwin_results* results) {
  return results ? results->results.scores.size() : 0;
}

const char* vqtwin_results_score_name(const vqtwin_results* results, size_t i) {
  return results && i < results->results.scores.size() ? results->results.scores[i].c_str() : nullptr;
}

int vqtwin_results_value(const vqtwin_results* results, const char* name, unsigned frame, double* value) {
  return guarded([&] {
    const vqtwin_results& r = results_of(results);
    need(name, "name");
    need(value, "value");
    const auto v = r.results.value(name, frame);
    if (!v) throw NotFound{std::string("no value of '") + name + "' for frame " + std::to_string(frame)};
    *value = *v;
  });
}

int vqtwin_results_pooled(const vqtwin_results* results, const char* name, const char* method, double* value) {
  return guarded([&] {
    const vqtwin_results& r = results_of(results);
    need(name, "name");
    need(method, "method");
    need(value, "value");
    const auto how = vqtwin::Pooling::parse(method);
    if (!how) throw ArgumentError{std::string("unknown pooling method '") + method + "' (min, max, mean, harmonic_mean, percN)"};
    const auto v = r.results.pooled(name, *how, r.subsample);
    if (!v) throw NotFound{std::string("no pooled value of '") + name + "'"};
    *value = *v;
  });
}

size_t vqtwin_results_aggregate_count(const vqtwin_results* results) {
  return results ? results->results.aggregates().size() : 0;
}

int vqtwin_results_aggregate(const vqtwin_results* results, size_t i, const char** name, double* value) {
  return guarded([&] {
    const vqtwin_results& r = results_of(results);
    need(name, "name");
    need(value, "value");
    const auto& a = r.results.aggregates();
    if (i >= a.size()) throw NotFound{"no aggregate " + std::to_string(i)};
    *name = a[i].first.c_str();
    *value = a[i].second;
  });
}

size_t vqtwin_results_receipt_count(const vqtwin_results* results) { return results ? results->receipt.size() : 0; }

int vqtwin_results_receipt(const vqtwin_results* results, size_t i, const char** name, const char** implementation) {
  return guarded([&] {
    const vqtwin_results& r = results_of(results);
    need(name, "name");
    need(implementation, "implementation");
    if (i >= r.receipt.size()) throw NotFound{"no receipt entry " + std::to_string(i)};
    *name = r.receipt[i].first.c_str();
    *implementation = r.receipt[i].second.c_str();
  });
}

int vqtwin_results_write(const vqtwin_results* results, const char* path, const char* format, int precision) {
  return guarded([&] {
    const vqtwin_results& r = results_of(results);
    need(path, "path");
    need(format, "format");
    vqtwin::OutputOptions o;
    const std::string f = format;
    if (f == "json") o.format = vqtwin::OutputFormat::kJson;
    else if (f == "xml") o.format = vqtwin::OutputFormat::kXml;
    else if (f == "csv") o.format = vqtwin::OutputFormat::kCsv;
    else if (f == "sub") o.format = vqtwin::OutputFormat::kSub;
    else throw ArgumentError{"format must be json, xml, csv or sub, not '" + f + "'"};
    if (precision != VQTWIN_PRECISION_MAX && (precision < -1 || precision > 17))
      throw ArgumentError{"precision must be -1, 0..17 or VQTWIN_PRECISION_MAX, not " + std::to_string(precision)};
    o.precision = precision;
    o.subsample = r.subsample;
    o.version = std::string("vqtwin ") + vqtwin::version();
    const bool to_stdout = std::string(path) == "-";
    std::FILE* out = to_stdout ? stdout : std::fopen(path, "w");
    if (!out) throw vqtwin::Error(std::string(path) + ": cannot be written (" + std::strerror(errno) + ")");
    vqtwin::write_output(out, r.results, o);
    const bool bad = std::ferror(out) != 0;
    if (to_stdout ? std::fflush(out) != 0 : std::fclose(out) != 0) throw vqtwin::Error(std::string(path) + ": write failed");
    if (bad) throw vqtwin::Error(std::string(path) + ": write failed");
  });
}

}  // extern "C"
