/* The C API from C99: frames of two 8-bit 4:2:0 y4m files (parsed here) pushed through a session with
   odd strides, the same pair through vqtwin_run_files, both written as JSON at full precision for
   tests/capi/compare_with_cli.sh to compare with the CLI's; then the error paths (status and message).
   Usage: capi_test REF.y4m DIST.y4m SESSION.json FILES.json */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vqtwin/vqtwin.h"

static int failures = 0;
#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "capi_test: %s:%d: %s (%s)\n", __FILE__, __LINE__, #cond, \
              vqtwin_last_error());                                              \
      ++failures;                                                                \
    }                                                                            \
  } while (0)

typedef struct {
  FILE* f;
  int width, height;
} y4m;

static int y4m_open(y4m* y, const char* path) {
  char header[256];
  const char* w;
  const char* h;
  y->f = fopen(path, "rb");
  if (!y->f || !fgets(header, sizeof header, y->f)) return 0;
  w = strstr(header, " W");
  h = strstr(header, " H");
  if (!w || !h || !strstr(header, " C420")) return 0; /* 8-bit 4:2:0 only */
  y->width = atoi(w + 2);
  y->height = atoi(h + 2);
  return 1;
}

/* One frame into `buf`, planes rows `stride` bytes apart (stride > width: padding the library must skip). */
static int y4m_read(y4m* y, unsigned char* buf, ptrdiff_t stride, vqtwin_picture* pic) {
  char line[64];
  int p, row;
  size_t offset = 0;
  if (!fgets(line, sizeof line, y->f)) return 0;
  for (p = 0; p < 3; ++p) {
    const int w = p ? (y->width + 1) / 2 : y->width, h = p ? (y->height + 1) / 2 : y->height;
    pic->planes[p].data = buf + offset;
    pic->planes[p].stride = stride;
    for (row = 0; row < h; ++row)
      if (fread(buf + offset + (size_t)row * (size_t)stride, 1, (size_t)w, y->f) != (size_t)w) return 0;
    offset += (size_t)stride * (size_t)h;
  }
  return 1;
}

int main(int argc, char** argv) {
  vqtwin_config* c;
  vqtwin_session* s = NULL;
  vqtwin_results* r = NULL;
  vqtwin_results* files = NULL;
  vqtwin_results* none = NULL;
  y4m ref, dist;
  unsigned char *rbuf, *dbuf;
  ptrdiff_t stride;
  vqtwin_picture rp, dp;
  unsigned frames = 0;
  double v;
  const char* name;
  if (argc != 5) {
    fprintf(stderr, "usage: capi_test REF.y4m DIST.y4m SESSION.json FILES.json\n");
    return 2;
  }
  if (!y4m_open(&ref, argv[1]) || !y4m_open(&dist, argv[2])) {
    fprintf(stderr, "capi_test: cannot read the inputs\n");
    return 2;
  }
  c = vqtwin_config_new();
  CHECK(c != NULL);
  CHECK(vqtwin_config_add_feature(c, "psnr") == VQTWIN_OK);
  CHECK(vqtwin_config_set(c, "threads", "2") == VQTWIN_OK);
  CHECK(vqtwin_session_open(c, ref.width, ref.height, 8, VQTWIN_CHROMA_420, &s) == VQTWIN_OK);
  stride = ref.width + 7;
  rbuf = malloc((size_t)stride * (size_t)ref.height * 2);
  dbuf = malloc((size_t)stride * (size_t)ref.height * 2);
  while (y4m_read(&ref, rbuf, stride, &rp) && y4m_read(&dist, dbuf, stride, &dp)) {
    CHECK(vqtwin_session_push(s, &rp, &dp) == VQTWIN_OK);
    ++frames;
  }
  CHECK(vqtwin_session_finish(s, &r) == VQTWIN_OK);
  CHECK(r != NULL);
  CHECK(vqtwin_results_frame_count(r) == frames);
  CHECK(vqtwin_results_score_count(r) == 1 && strcmp(vqtwin_results_score_name(r, 0), "vmaf") == 0);
  CHECK(vqtwin_results_name_count(r) > 10 && vqtwin_results_name(r, 0) != NULL);
  CHECK(vqtwin_results_name(r, vqtwin_results_name_count(r)) == NULL);
  CHECK(vqtwin_results_pooled(r, "vmaf", "mean", &v) == VQTWIN_OK && v > 0 && v < 100);
  CHECK(vqtwin_results_value(r, "psnr_y", 0, &v) == VQTWIN_OK);
  CHECK(vqtwin_results_write(r, argv[3], "json", VQTWIN_PRECISION_MAX) == VQTWIN_OK);

  CHECK(vqtwin_run_files(c, argv[1], argv[2], &files) == VQTWIN_OK);
  CHECK(files != NULL);
  CHECK(vqtwin_results_write(files, argv[4], "json", VQTWIN_PRECISION_MAX) == VQTWIN_OK);

  /* Errors: a status and one line saying why. */
  CHECK(vqtwin_session_push(s, &rp, &dp) == VQTWIN_ERROR_STATE);
  CHECK(vqtwin_session_finish(s, &none) == VQTWIN_ERROR_STATE && none == NULL);
  CHECK(vqtwin_results_value(r, "psnr_y", frames, &v) == VQTWIN_ERROR_NOT_FOUND);
  CHECK(vqtwin_results_value(r, "no_such_metric", 0, &v) == VQTWIN_ERROR_NOT_FOUND);
  CHECK(vqtwin_results_pooled(r, "vmaf", "median", &v) == VQTWIN_ERROR_ARGUMENT);
  CHECK(strstr(vqtwin_last_error(), "median") != NULL);
  CHECK(vqtwin_results_aggregate(r, 99, &name, &v) == VQTWIN_ERROR_NOT_FOUND);
  CHECK(vqtwin_results_write(r, "/nonexistent/dir/out.json", "json", -1) == VQTWIN_ERROR_INPUT);
  CHECK(vqtwin_results_write(r, "-", "yaml", -1) == VQTWIN_ERROR_ARGUMENT);
  CHECK(vqtwin_config_set(c, "no_such_setting", "1") == VQTWIN_ERROR_ARGUMENT);
  CHECK(vqtwin_config_set(c, "threads", "two") == VQTWIN_ERROR_ARGUMENT);
  CHECK(vqtwin_config_set(NULL, "threads", "2") == VQTWIN_ERROR_ARGUMENT);
  CHECK(vqtwin_run_files(c, argv[1], "/nonexistent.y4m", &none) == VQTWIN_ERROR_INPUT && none == NULL);
  CHECK(strstr(vqtwin_last_error(), "/nonexistent.y4m") != NULL);
  vqtwin_session_free(s);
  s = NULL;
  CHECK(vqtwin_config_add_feature(c, "no_such_feature") == VQTWIN_OK); /* checked when a session opens */
  CHECK(vqtwin_session_open(c, 64, 48, 8, VQTWIN_CHROMA_420, &s) == VQTWIN_ERROR_INPUT && s == NULL);
  CHECK(strstr(vqtwin_last_error(), "unknown feature") != NULL);
  CHECK(vqtwin_session_open(c, 64, 48, 8, 7, &s) == VQTWIN_ERROR_ARGUMENT);

  vqtwin_results_free(r);
  vqtwin_results_free(files);
  vqtwin_config_free(c);
  free(rbuf);
  free(dbuf);
  fclose(ref.f);
  fclose(dist.f);
  if (failures) return 1;
  printf("capi_test: %u frames pushed, all checks passed\n", frames);
  return 0;
}
