// A run on two files: open the inputs, then feed their frames to a Session (core/session.cpp), which
// registers the contexts, computes the frames on its workers, flushes and predicts.
#include <algorithm>
#include <exception>
#include <string>
#include <thread>

#include "core/session_internal.hpp"
#include "io/alignment.hpp"
#include "io/inputs.hpp"
#include "models/model.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/run.hpp"
#include "vqtwin/session.hpp"

namespace vqtwin {

const char* version() { return "0.1.0"; }

namespace {

// A file run: both inputs opened and made comparable, --frame_skip_* and --sync applied, then the
// frames read (on the calling thread, straight into the session's pictures) and submitted to one
// Session, whose workers compute them. The first frames' thumbnails feed the time-shift check; the
// inputs' lengths are compared at the end.
class Engine {
 public:
  Engine(const RunConfig& cfg, Results& out) : cfg_(cfg), out_(out) {}

  void run() {
    if (cfg_.subsample == 0) throw Error("--subsample must be at least 1");
    if (!cfg_.sync.empty() && cfg_.sync != "auto" && cfg_.sync != "none")
      throw Error("--sync must be auto or none, not '" + cfg_.sync + "'");
    if (cfg_.max_pixels < 1 || cfg_.max_pixels > kMaxPixelsLimit)
      throw Error("--max_pixels must be 1.." + std::to_string(kMaxPixelsLimit) + ", not " +
                  std::to_string(cfg_.max_pixels));
    threads_ = cfg_.threads ? cfg_.threads : std::max(1u, std::thread::hardware_concurrency());
    // Unknown features, options and models are reported before the inputs are opened.
    check_requests();
    if (cfg_.reference == "-" && cfg_.distorted == "-")
      throw Error("only one of --reference and --distorted can be standard input");
    open_inputs_();

    SessionConfig sc = cfg_;
    sc.threads = threads_;
    sc.progress = [this](unsigned done, unsigned) {
      if (cfg_.progress) cfg_.progress(done, total_);
    };
    Session session(sc, format_, out_);
    std::exception_ptr failure;
    try {
      read_frames(session);
    } catch (...) {
      failure = std::current_exception();
    }
    try {
      session.finish();
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
    if (failure) std::rethrow_exception(failure);
    if (frames_read_ == 0 && !stop_requested()) throw Error("no frames to compare");
    if (stop_requested()) return;  // a stop is not a length mismatch
    if (!thumbs_checked_) check_shift();  // a clip shorter than the frames the check looks at
    check_lengths();
  }

 private:
  void check_requests() {
    for (const std::string& f : cfg_.features) check_feature_text(f);
    if (!cfg_.no_prediction || !cfg_.models.empty()) models::load_models(cfg_.models);
    if (cfg_.no_prediction && cfg_.features.empty()) throw Error("nothing to compute: give --feature or --model");
  }

  // Reads frame pairs into the session's pictures until an input ends, --frame_cnt, or a stop. A read
  // error is thrown (the session then still finishes over the frames submitted).
  void read_frames(Session& session) {
    for (;;) {
      if (stop_requested()) return;
      if (cfg_.frame_cnt && frames_read_ >= cfg_.frame_cnt) return;
      const Session::Slot slot = session.acquire();
      bool got = false;
      try {
        got = read_pair(*slot.ref, *slot.dist);
      } catch (...) {
        session.release(slot);
        // A read given up on a stop request is the stop, not an input error.
        if (stop_requested()) return;
        throw;
      }
      if (!got) {
        session.release(slot);
        return;
      }
      ++frames_read_;
      session.submit(slot);
    }
  }

  // The next frame of both inputs; false at the end of an input (ended_first_ says which;
  // check_lengths() reports it after the run).
  bool read_pair(Picture& ref, Picture& dist) {
    if (!ref_->read(ref)) {
      ended_first_ = 1;
      return false;
    }
    if (!dist_->read(dist)) {
      ended_first_ = 2;
      return false;
    }
    if (cfg_.sync.empty()) keep_thumbnails(ref, dist, frames_read_);
    return true;
  }

  // Opens both inputs (converted as asked), applies --frame_skip_* and --sync auto, and says what was
  // converted.
  void open_inputs_() {
    InputOptions options;
    options.source.raw = RawFormat{cfg_.width, cfg_.height, cfg_.pixel_format, cfg_.bitdepth};
    options.source.decode_threads = threads_;
    options.source.limits = InputLimits{cfg_.max_pixels, cfg_.stop};
    options.scale = cfg_.scale;
    options.common_bitdepth = cfg_.common_bitdepth;
    Inputs in = open_inputs(cfg_.reference, cfg_.distorted, options);
    format_ = in.format;
    out_.width = format_.width;
    out_.height = format_.height;
    out_.input_conversions = in.conversions;
    for (const PictureSource* s : {in.ref.get(), in.dist.get()})
      out_.inputs.push_back({s->path(), s->kind(), s->format().describe(), s->frame_rate()});
    if (!in.conversions.empty() && cfg_.note) {
      std::string line = "converted the inputs: ";
      for (std::size_t i = 0; i < in.conversions.size(); ++i) line += (i ? "; " : "") + in.conversions[i].second;
      cfg_.note(line);
    }
    skipped_ref_ = skip(*in.ref, cfg_.frame_skip_ref);
    skipped_dist_ = skip(*in.dist, cfg_.frame_skip_dist);
    if (cfg_.sync == "auto") {
      auto ref = std::make_unique<ReplaySource>(std::move(in.ref));
      auto dist = std::make_unique<ReplaySource>(std::move(in.dist));
      apply_sync(*ref, *dist);
      in.ref = std::move(ref);
      in.dist = std::move(dist);
    }
    ref_ = std::move(in.ref);
    dist_ = std::move(in.dist);
    total_ = expected_frames();
  }

  static unsigned skip(PictureSource& s, unsigned n) {
    unsigned done = 0;
    while (done < n && s.skip()) ++done;
    return done;
  }

  // --sync auto: the first frames of both, compared at offsets -3..+3; the offset found is applied by
  // dropping frames at the start of the input that has extra ones.
  void apply_sync(ReplaySource& ref, ReplaySource& dist) {
    std::vector<Thumbnail> rt, dt;
    for (const Picture& p : ref.read_ahead(kSyncFrames)) rt.push_back(make_thumbnail(p));
    for (const Picture& p : dist.read_ahead(kSyncFrames)) dt.push_back(make_thumbnail(p));
    const ShiftEstimate e = estimate_shift(rt, dt);
    out_.sync_offset = e.offset;
    thumbs_checked_ = true;
    std::string text;
    if (e.offset > 0) {
      skipped_dist_ += skip(dist, unsigned(e.offset));
      text = "the distorted has " + frames_text(e.offset) + " more at its start: skipped (as " +
             skip_option(e.offset) + ")";
    } else if (e.offset < 0) {
      skipped_ref_ += skip(ref, unsigned(-e.offset));
      text = "the distorted lacks the reference's first " + frames_text(-e.offset) + ": skipped (as " +
             skip_option(e.offset) + ")";
    } else {
      text = "the inputs look aligned (offset 0)";
    }
    out_.input_conversions.emplace_back("sync", text);
    if (cfg_.note) cfg_.note("--sync auto: " + text);
  }

  // Frames the run is expected to score, for progress (0 = unknown).
  unsigned expected_frames() const {
    auto left = [](const PictureSource& s, unsigned skipped) -> unsigned {
      const unsigned n = s.estimated_frames();
      return n == 0 ? 0 : n > skipped ? n - skipped : 1;
    };
    const unsigned r = left(*ref_, skipped_ref_), d = left(*dist_, skipped_dist_);
    unsigned total = r && d ? std::min(r, d) : std::max(r, d);
    if (cfg_.frame_cnt && (total == 0 || total > cfg_.frame_cnt)) total = cfg_.frame_cnt;
    return total;
  }

  // The first frames' thumbnails are kept as they are read; once there are enough, the check runs.
  void keep_thumbnails(const Picture& ref, const Picture& dist, unsigned index) {
    if (thumbs_checked_ || index >= unsigned(kSyncFrames)) return;
    ref_thumbs_.push_back(make_thumbnail(ref));
    dist_thumbs_.push_back(make_thumbnail(dist));
    if (ref_thumbs_.size() == std::size_t(kSyncFrames)) check_shift();
  }

  void check_shift() {
    thumbs_checked_ = true;
    const ShiftEstimate e = estimate_shift(ref_thumbs_, dist_thumbs_);
    if (e.offset != 0 && cfg_.warn)
      cfg_.warn(describe_shift(e, ref_->path(), dist_->path(), skipped_ref_, skipped_dist_));
  }

  // Inputs of different lengths: a warning (an error with --strict_length) that says which ended first.
  void check_lengths() {
    if (!ended_first_) return;
    PictureSource& shorter = ended_first_ == 1 ? *ref_ : *dist_;
    PictureSource& longer = ended_first_ == 1 ? *dist_ : *ref_;
    const unsigned shorter_total = frames_read_ + (ended_first_ == 1 ? skipped_ref_ : skipped_dist_);
    unsigned longer_seen = frames_read_ + (ended_first_ == 1 ? skipped_dist_ : skipped_ref_);
    if (ended_first_ == 2) {
      ++longer_seen;  // the reference frame read with the missing distorted one
    } else if (!longer.skip()) {
      return;  // both ended together
    } else {
      ++longer_seen;
    }
    // The longer one's length: as its file says, else counted on (a bounded number of frames).
    std::string longer_total;
    if (longer.known_frames() >= longer_seen) {
      longer_total = std::to_string(longer.known_frames());
    } else {
      constexpr unsigned kCountLimit = 1000;
      unsigned more = 0;
      while (more < kCountLimit && longer.skip()) ++more;
      longer_total = (more == kCountLimit ? "more than " : "") + std::to_string(longer_seen + more);
    }
    const std::string text = shorter.path() + " ended after " + std::to_string(shorter_total) + " frames, " +
                             longer.path() + " has " + longer_total + "; scored " + std::to_string(frames_read_);
    if (cfg_.strict_length) throw Error(text + " (--strict_length)");
    if (cfg_.warn) cfg_.warn(text + "; --strict_length makes this an error");
  }

  bool stop_requested() const { return cfg_.stop && cfg_.stop->load(); }

  const RunConfig& cfg_;
  Results& out_;
  std::unique_ptr<PictureSource> ref_, dist_;
  PictureFormat format_{};
  unsigned threads_ = 1;
  unsigned skipped_ref_ = 0, skipped_dist_ = 0;  // frames skipped at the start (--frame_skip_*, --sync auto)
  unsigned total_ = 0;                           // frames expected (progress)
  unsigned frames_read_ = 0;
  int ended_first_ = 0;                          // 1: the reference ended first, 2: the distorted
  std::vector<Thumbnail> ref_thumbs_, dist_thumbs_;
  bool thumbs_checked_ = false;
};

}  // namespace

void run(const RunConfig& config, Results& out) {
  Engine engine(config, out);
  engine.run();
}

}  // namespace vqtwin
