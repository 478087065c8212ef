#pragma once
// Running the vqtwin executable from tests: a temporary folder per test, small generated inputs,
// runs through the shell (pipes, FIFOs, ulimit, redirections) or spawned directly (signals).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace vqtwin::cli_test {

namespace fs = std::filesystem;

// ulimit -v does not mix with sanitizers (they reserve terabytes of address space).
constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    true;
#else
    false;
#endif
#else
    false;
#endif

struct Outcome {
  int status = -1;  // exit status; 128 + N when killed by signal N
  std::string out, err;
  double seconds = 0;
};

inline int count_lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Peak resident memory in MiB from the CLI's VQTWIN_REPORT_PEAK_MEMORY line, or -1.
inline double peak_mib(const std::string& err) {
  const auto p = err.find("vqtwin: peak memory:");
  if (p == std::string::npos) return -1;
  return std::strtod(err.c_str() + p + 20, nullptr) / 1024.0;
}

// The error lines of a run, without the peak memory report.
inline std::string without_peak(std::string err) {
  const auto p = err.find("vqtwin: peak memory:");
  if (p != std::string::npos) err.erase(p, err.find('\n', p) - p + 1);
  return err;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("vqtwin_harden_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string write(const std::string& name, const std::string& data) {
    std::ofstream(path(name), std::ios::binary) << data;
    return path(name);
  }

  // 8-bit 4:2:0 frames with a pattern that differs per frame and per `seed`.
  static std::string raw_frames(int w, int h, int frames, int seed = 0) {
    std::string data;
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    for (int f = 0; f < frames; ++f) {
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) data.push_back(char((x * 7 + y * 13 + f * 29 + seed * ((x * y) % 5)) & 255));
      for (int i = 0; i < 2 * cw * ch; ++i) data.push_back(char((i * 3 + f) & 255));
    }
    return data;
  }

  std::string y4m(const std::string& name, int w, int h, int frames, int seed = 0) {
    std::string data = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 C420jpeg\n";
    const std::string body = raw_frames(w, h, frames, seed);
    const std::size_t per = body.size() / std::size_t(std::max(frames, 1));
    for (int f = 0; f < frames; ++f) data += "FRAME\n" + body.substr(std::size_t(f) * per, per);
    return write(name, data);
  }

  // `sh -c "BEFORE; exec vqtwin -q ARGS >out 2>err"`; BEFORE may set limits, start writers, etc.
  // ARGS may redirect standard input; standard output goes to `stdout_to` (default: a file read back).
  Outcome sh(const std::string& args, const std::string& before = "", const std::string& stdout_to = "") {
    const std::string out = path("stdout.txt"), err = path("stderr.txt");
    // BEFORE ending in '|' or '&' (a pipe into vqtwin, a background writer) is joined with a space.
    const char joint = before.empty() ? ' ' : before.back();
    const std::string cmd = before + (joint == '|' || joint == '&' || before.empty() ? " " : "; ") + "exec " + launcher_ + std::string(VQTWIN_CLI) + " -q " + args +
                            " >" + (stdout_to.empty() ? out : stdout_to) + " 2>" + err;
    const auto t0 = std::chrono::steady_clock::now();
    const int raw = std::system(cmd.c_str());
    Outcome o;
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : (WIFSIGNALED(raw) ? 128 + WTERMSIG(raw) : -1);
    o.out = slurp(out);
    o.err = slurp(err);
    return o;
  }

  // Starts vqtwin with `args` (no shell); standard output and error go to files; returns its pid.
  pid_t spawn(const std::vector<std::string>& args, const std::string& stdout_path = "") {
    const std::string out = stdout_path.empty() ? path("stdout.txt") : stdout_path, err = path("stderr.txt");
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(o, 1);
      ::dup2(e, 2);
      std::vector<char*> argv{const_cast<char*>(VQTWIN_CLI), const_cast<char*>("-q")};
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(VQTWIN_CLI, argv.data());
      ::_exit(127);
    }
    return pid;
  }

  // Waits for `pid` up to `timeout_s`; its exit status (128 + N for signal N), or -1 if still running.
  static int wait_for(pid_t pid, double timeout_s) {
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
      int raw = 0;
      if (::waitpid(pid, &raw, WNOHANG) == pid) return WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeout_s) return -1;
      ::usleep(20000);
    }
  }

  static void kill_and_reap(pid_t pid) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }

  // One error line that starts with "vqtwin: error: " and contains `needle`, and a failure status.
  static void expect_one_error(const Outcome& o, const std::string& needle, int status = 1) {
    const std::string err = without_peak(o.err);
    EXPECT_EQ(o.status, status) << err;
    EXPECT_EQ(count_lines(err), 1) << err;
    EXPECT_EQ(err.rfind("vqtwin: error: ", 0), 0u) << err;
    EXPECT_NE(err.find(needle), std::string::npos) << "wanted '" << needle << "' in: " << err;
  }

  fs::path dir_;
  std::string launcher_;  // e.g. "timeout 10 ": a run that would hang ends with status 124
};

}  // namespace vqtwin::cli_test
