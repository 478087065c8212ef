// Hardening of the inputs and the run (issue 12): raw yuv through pipes, thread and memory
// failures, headers that ask for huge pictures, folders, lengths that differ, signals. Each test
// failed before its fix (see the issue); the outcome is an exit status and one clear line, and
// nothing computed is lost.
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace vqtwin::cli_test {
namespace {

using nlohmann::json;

// 64x48 4:2:0 is 4608 bytes a frame: more than the 4096 bytes stdio used to probe and lose.
constexpr int kW = 64, kH = 48;
const std::string kRaw = " -w 64 -h 48 -p 420 -b 8 --feature psnr --no_prediction --json --precision max -o ";

std::vector<double> psnr_y(const std::string& json_path) {
  std::vector<double> v;
  const json j = json::parse(slurp(json_path));
  for (const auto& f : j["frames"]) v.push_back(f["metrics"]["psnr_y"].get<double>());
  return v;
}

TEST_F(CliTest, RawYuvThroughPipesKeepsEveryByte) {
  const std::string ref = write("r.yuv", raw_frames(kW, kH, 3));
  // Identical inputs: psnr_y is the 8-bit ceiling, 60, on every frame, whatever the path kind.
  const std::vector<double> identical(3, 60.0);
  const std::string o = path("o.json");
  // A pipe behind a path that is not "-".
  const std::string pipe_cmd = "cat " + ref + " | " + std::string(VQTWIN_CLI) + " -q -r " + ref + " -d /dev/stdin" + kRaw + o;
  ASSERT_EQ(std::system(pipe_cmd.c_str()), 0);
  EXPECT_EQ(psnr_y(o), identical) << "a pipe as /dev/stdin";
  // Standard input as "-".
  const std::string dash_cmd = "cat " + ref + " | " + std::string(VQTWIN_CLI) + " -q -r - -d " + ref + kRaw + o;
  ASSERT_EQ(std::system(dash_cmd.c_str()), 0);
  EXPECT_EQ(psnr_y(o), identical) << "a pipe as -";
  // A FIFO.
  const std::string fifo = path("in.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // (the writer gives up after 20 s if vqtwin never opens the FIFO: nothing is left behind)
  const Outcome r = sh("-r " + ref + " -d " + fifo + kRaw + o, "timeout 20 sh -c 'cat " + ref + " > " + fifo + "' &");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(psnr_y(o), identical) << "a FIFO";
  // y4m through the same kinds of path keeps working.
  const std::string y = y4m("r.y4m", kW, kH, 3);
  const std::string y4m_cmd = "cat " + y + " | " + std::string(VQTWIN_CLI) + " -q -r " + y +
                              " -d /dev/stdin --feature psnr --no_prediction --json -o " + o;
  ASSERT_EQ(std::system(y4m_cmd.c_str()), 0);
  EXPECT_EQ(psnr_y(o), identical) << "y4m through a pipe";
}

TEST_F(CliTest, TooManyThreadsIsOneError) {
  if (kSanitized) GTEST_SKIP() << "needs ulimit -v";
  const std::string y = y4m("r.y4m", kW, kH, 4);
  // 600 MB of address space hold about 70 thread stacks: thread creation fails part-way.
  const Outcome o = sh("-r " + y + " -d " + y + " --feature psnr --no_prediction --threads 1024", "ulimit -v 600000");
  expect_one_error(o, "--threads 1024: could not start thread");
}

TEST_F(CliTest, OutOfMemoryInAWorkerIsOneError) {
  if (kSanitized) GTEST_SKIP() << "needs ulimit -v";
  // One 8192x8192 16-bit 4:4:4 frame (a sparse file): a picture is 384 MiB, over the 300 MB allowed.
  const std::string header = "YUV4MPEG2 W8192 H8192 F25:1 C444p16\nFRAME\n";
  const std::string y = write("big.y4m", header);
  fs::resize_file(y, header.size() + std::uintmax_t(8192) * 8192 * 3 * 2);
  const Outcome o = sh("-r " + y + " -d " + y + " --feature psnr --no_prediction --threads 2", "ulimit -v 300000");
  expect_one_error(o, "out of memory");
}

TEST_F(CliTest, TinyHeaderAllocatesNothing) {
  // 66 bytes declaring a 16384x16384 16-bit 4:4:4 picture (1.5 GiB), then nothing.
  const std::string big = write("big.y4m", "YUV4MPEG2 W16384 H16384 F25:1 C444p16\nFRAME\n");
  // Over the default size limit: refused at the header, and the message names the override.
  expect_one_error(sh("-r " + big + " -d " + big + " --feature psnr --no_prediction"), "--max_pixels raises it");
  // Allowed, from a regular file: the file cannot hold a frame, refused before any allocation.
  const std::string cap = " --max_pixels 268435456 --threads 8 --feature psnr --no_prediction";
  Outcome o = sh("-r " + big + " -d " + big + cap, "export VQTWIN_REPORT_PEAK_MEMORY=1");
  expect_one_error(o, "big.y4m: frame 0 is truncated");
  EXPECT_LT(peak_mib(o.err), 200) << o.err;
  // From pipes (sizes unknown): still nothing allocated for a frame that never comes.
  o = sh("-r - -d /dev/stdin" + cap + " < " + big, "export VQTWIN_REPORT_PEAK_MEMORY=1");
  expect_one_error(o, "frame 0 is truncated");
  EXPECT_LT(peak_mib(o.err), 200) << o.err;
  EXPECT_LT(o.seconds, 20);
}

TEST_F(CliTest, FolderAsInputSaysSo) {
  const std::string y = y4m("r.y4m", kW, kH, 2);
  expect_one_error(sh("-r " + dir_.string() + " -d " + y + " --feature psnr --no_prediction"), "is a folder");
}

TEST_F(CliTest, OutputIsCheckedBeforeTheRun) {
  // Endless raw inputs: a run that only ended when it tried to write would never end.
  const std::string endless = "-r /dev/zero -d /dev/zero -w 64 -h 48 -p 420 -b 8 --feature psnr --no_prediction -o ";
  launcher_ = "timeout 20 ";  // before the fix, these ran until killed
  Outcome o = sh(endless + path("missing/o.json"));
  expect_one_error(o, "missing/o.json: cannot write (No such file or directory)");
  expect_one_error(sh(endless + dir_.string()), "cannot write (Is a directory)");
  // Nothing computed: an existing output keeps its contents, a new one is not left behind.
  const std::string keep = write("keep.json", "previous results");
  expect_one_error(sh("-r " + path("nothing.y4m") + " -d " + path("nothing.y4m") + " --feature psnr -n -o " + keep),
                   "cannot open");
  EXPECT_EQ(slurp(keep), "previous results");
  expect_one_error(sh("-r " + path("nothing.y4m") + " -d " + path("nothing.y4m") + " --feature psnr -n -o " + path("new.json")),
                   "cannot open");
  EXPECT_FALSE(fs::exists(path("new.json")));
}

TEST_F(CliTest, LengthMismatchWarnsOnceOrFailsWhenStrict) {
  const std::string r = y4m("r.y4m", kW, kH, 5), d = y4m("d.y4m", kW, kH, 3, 1), o = path("o.json");
  Outcome out = sh("-r " + r + " -d " + d + " --feature psnr --no_prediction --json -o " + o + " --threads 3");
  EXPECT_EQ(out.status, 0) << out.err;
  EXPECT_EQ(out.err, "vqtwin: warning: " + d + " ended after 3 frames, " + r + " has 5; scored 3; --strict_length makes this an error\n");
  EXPECT_EQ(psnr_y(o).size(), 3u) << slurp(o);
  // The shorter one first: the same line with the roles swapped.
  out = sh("-r " + d + " -d " + r + " --feature psnr --no_prediction --json -o " + o);
  EXPECT_EQ(out.err, "vqtwin: warning: " + d + " ended after 3 frames, " + r + " has 5; scored 3; --strict_length makes this an error\n");
  // --strict_length: an error, and the common frames are still written.
  out = sh("-r " + r + " -d " + d + " --feature psnr --no_prediction --json -o " + o + " --strict_length");
  expect_one_error(out, d + " ended after 3 frames, " + r + " has 5; scored 3 (--strict_length)");
  EXPECT_EQ(psnr_y(o).size(), 3u);
  // Equal lengths, or --frame_cnt within both: nothing said.
  out = sh("-r " + r + " -d " + r + " --feature psnr --no_prediction --strict_length -o " + o);
  EXPECT_EQ(out.status, 0);
  EXPECT_EQ(out.err, "");
  out = sh("-r " + r + " -d " + d + " --feature psnr --no_prediction --strict_length --frame_cnt 2 -o " + o);
  EXPECT_EQ(out.status, 0);
  EXPECT_EQ(out.err, "");
  // A pipe is counted to its end (up to a bound: see "/dev/zero as raw" in tools/fault_check.sh).
  out = sh("-r " + d + " -d - --feature psnr --no_prediction -o " + o, "cat " + r + " |");
  EXPECT_EQ(out.err, "vqtwin: warning: " + d + " ended after 3 frames, standard input has 5; scored 3; --strict_length makes this an error\n");
}

// SIGINT / SIGTERM: the frames computed are written, one line says so, the status is 128 + signal.
TEST_F(CliTest, SignalsKeepTheComputedFrames) {
  for (int sig : {SIGINT, SIGTERM}) {
    const std::string o = path("o" + std::to_string(sig) + ".json");
    // /dev/zero: an endless raw input, so only the signal ends the run.
    const pid_t pid = spawn({"-r", "/dev/zero", "-d", "/dev/zero", "-w", "64", "-h", "48", "-p", "420", "-b", "8",
                             "--feature", "psnr", "--no_prediction", "--json", "--threads", "2", "-o", o});
    ::usleep(500000);
    ::kill(pid, sig);
    const int status = wait_for(pid, 30);
    if (status < 0) kill_and_reap(pid);
    ASSERT_EQ(status, 128 + sig);
    const std::string err = slurp(path("stderr.txt"));
    EXPECT_EQ(count_lines(err), 1) << err;
    EXPECT_EQ(err.rfind(std::string("vqtwin: interrupted by ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") + ": writing the ", 0), 0u) << err;
    const json j = json::parse(slurp(o));
    EXPECT_GT(j["frames"].size(), 0u);
    EXPECT_EQ(j["frames"].back()["metrics"]["psnr_y"], 60.0);
  }
}

TEST_F(CliTest, SignalStopsAReadWaitingOnAStalledPipe) {
  // The writer sends 2 frames and then holds the FIFO open without writing.
  const std::string r = y4m("r.y4m", kW, kH, 5), fifo = path("stall.fifo"), o = path("o.json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string two_frames = std::to_string(slurp(r).size() * 2 / 5 + 20);
  const pid_t writer = ::fork();
  if (writer == 0) {
    ::execl("/bin/sh", "sh", "-c", ("exec 3>" + fifo + "; head -c " + two_frames + " " + r + " >&3; exec sleep 60").c_str(),
            nullptr);
    ::_exit(127);
  }
  const pid_t pid = spawn({"-r", fifo, "-d", r, "--feature", "psnr", "--no_prediction", "--json", "--threads", "2", "-o", o});
  ::usleep(700000);
  ::kill(pid, SIGTERM);
  const int status = wait_for(pid, 20);
  if (status < 0) kill_and_reap(pid);
  kill_and_reap(writer);
  ASSERT_EQ(status, 128 + SIGTERM) << slurp(path("stderr.txt"));
  EXPECT_EQ(json::parse(slurp(o))["frames"].size(), 2u);
}

TEST_F(CliTest, SecondSignalExitsAtOnce) {
  // After the first SIGINT the output goes to a pipe nobody reads: writing blocks; the second exits.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    const int e = ::open(path("stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(e, 2);
    ::execl(VQTWIN_CLI, VQTWIN_CLI, "-q", "-r", "/dev/zero", "-d", "/dev/zero", "-w", "16", "-h", "16", "-p", "420", "-b",
            "8", "--feature", "psnr", "--no_prediction", "--json", "-o", "-", nullptr);
    ::_exit(127);
  }
  ::close(fds[1]);
  ::usleep(500000);
  ::kill(pid, SIGINT);
  ::usleep(500000);
  EXPECT_EQ(wait_for(pid, 0), -1) << "should still be writing into the full pipe";
  ::kill(pid, SIGINT);
  const int status = wait_for(pid, 5);
  if (status < 0) kill_and_reap(pid);
  ::close(fds[0]);
  EXPECT_EQ(status, 130);
}

}  // namespace
}  // namespace vqtwin::cli_test
