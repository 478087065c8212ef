// A C++ user of the installed library: VMAF of two files (vqtwin::run), then a session fed from memory.
// Prints the pooled VMAF mean with %.17g for the install test to compare with the CLI's.
#include <vqtwin/run.hpp>
#include <vqtwin/session.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  try {
    vqtwin::RunConfig config;
    config.reference = argv[1];
    config.distorted = argv[2];
    vqtwin::Results results;
    vqtwin::run(config, results);
    std::printf("vmaf %.17g\n", *results.pooled("vmaf", {vqtwin::PoolMethod::kMean}));

    vqtwin::SessionConfig sc;
    sc.no_prediction = true;
    sc.features = {"psnr"};
    vqtwin::Results mem;
    vqtwin::Session session(sc, vqtwin::PictureFormat{64, 48, 8, vqtwin::ChromaFormat::k420}, mem);
    std::vector<unsigned char> y(64 * 48, 100), c(32 * 24, 128);
    vqtwin::PictureView pic;
    pic.planes[0] = {y.data(), 64};
    pic.planes[1] = {c.data(), 32};
    pic.planes[2] = {c.data(), 32};
    session.push(pic, pic);
    session.finish();
    std::printf("psnr_y %.17g\n", *mem.value("psnr_y", 0));
  } catch (const vqtwin::Error& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
  return 0;
}
