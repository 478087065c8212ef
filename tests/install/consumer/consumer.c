/* A C99 user of the installed library: VMAF of two files through the C API, %.17g. */
#include <vqtwin/vqtwin.h>

#include <stdio.h>

int main(int argc, char** argv) {
  vqtwin_config* c;
  vqtwin_results* r = NULL;
  double v = 0;
  int status;
  if (argc != 3) return 2;
  c = vqtwin_config_new();
  status = vqtwin_run_files(c, argv[1], argv[2], &r);
  if (status == VQTWIN_OK) status = vqtwin_results_pooled(r, "vmaf", "mean", &v);
  if (status != VQTWIN_OK) {
    fprintf(stderr, "consumer: %s\n", vqtwin_last_error());
    return 1;
  }
  printf("vmaf %.17g\n", v);
  vqtwin_results_free(r);
  vqtwin_config_free(c);
  return 0;
}
