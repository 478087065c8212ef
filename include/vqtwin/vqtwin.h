/* vqtwin's C API: C99, opaque handles, status codes with a message; no C++ type crosses it, so it is
   usable from C and through ctypes/cffi. Every function returning int returns VQTWIN_OK (0) or a
   vqtwin_status; vqtwin_last_error() then says why, in one line.

   A session scores frames the caller has in memory:
     vqtwin_config* c = vqtwin_config_new();
     vqtwin_config_add_feature(c, "psnr");                  (VMAF is computed unless no_prediction)
     vqtwin_session* s;
     vqtwin_session_open(c, 1920, 1080, 8, VQTWIN_CHROMA_420, &s);
     for each frame: vqtwin_session_push(s, &ref, &dist);   (planes + strides, copied)
     vqtwin_results* r;
     vqtwin_session_finish(s, &r);  vqtwin_session_free(s);
     vqtwin_results_pooled(r, "vmaf", "mean", &v);
     vqtwin_results_free(r);  vqtwin_config_free(c);
   vqtwin_run_files() does the same on two files (y4m, raw yuv, anything FFmpeg decodes). */
#ifndef VQTWIN_VQTWIN_H
#define VQTWIN_VQTWIN_H

#include <stddef.h>

#if defined(_WIN32)
#define VQTWIN_C_API
#else
#define VQTWIN_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum vqtwin_status {
  VQTWIN_OK = 0,
  VQTWIN_ERROR_ARGUMENT = 1,   /* a null handle or pointer, an unknown key, method or value */
  VQTWIN_ERROR_INPUT = 2,      /* what vqtwin refuses: unknown features or options, bad models, bad input */
  VQTWIN_ERROR_NO_MEMORY = 3,
  VQTWIN_ERROR_STATE = 4,      /* a call out of order: push after finish, finish twice */
  VQTWIN_ERROR_NOT_FOUND = 5,  /* no value of that name (for that frame) */
  VQTWIN_ERROR_INTERNAL = 6
};

enum vqtwin_chroma { VQTWIN_CHROMA_420 = 0, VQTWIN_CHROMA_422 = 1, VQTWIN_CHROMA_444 = 2, VQTWIN_CHROMA_400 = 3 };

/* vqtwin_results_write's precision: libvmaf's format (-1), N decimals (0..17), or %.17g (round-trip). */
#define VQTWIN_PRECISION_DEFAULT (-1)
#define VQTWIN_PRECISION_MAX 1000

typedef struct vqtwin_config vqtwin_config;
typedef struct vqtwin_session vqtwin_session;
typedef struct vqtwin_results vqtwin_results;

/* One plane: 8-bit samples as uint8_t, 9..16-bit as uint16_t (low bits), rows `stride` bytes apart. */
typedef struct vqtwin_plane {
  const void* data;
  ptrdiff_t stride;
} vqtwin_plane;

/* Y, Cb, Cr (Y alone for 4:0:0); chroma planes of odd sizes are rounded up, as files store them. */
typedef struct vqtwin_picture {
  vqtwin_plane planes[3];
} vqtwin_picture;

VQTWIN_C_API const char* vqtwin_version(void);
/* The message of the last call that failed on this thread ("" if none); valid until the next call. */
VQTWIN_C_API const char* vqtwin_last_error(void);

/* Configuration: the CLI's settings. NULL when out of memory. */
VQTWIN_C_API vqtwin_config* vqtwin_config_new(void);
VQTWIN_C_API void vqtwin_config_free(vqtwin_config* config);
/* A --feature text ("psnr", "float_ssim=enable_db=true:clip_db=true"); checked when a session opens. */
VQTWIN_C_API int vqtwin_config_add_feature(vqtwin_config* config, const char* feature);
/* A --model text ("version=vmaf_v0.6.1", "path=model.json:name=mine"). */
VQTWIN_C_API int vqtwin_config_add_model(vqtwin_config* config, const char* model);
/* A setting by its CLI name, as text: threads, subsample, no_prediction (true/false), backend (cpu, cuda, vulkan,
   auto), gpu, cpumask; for vqtwin_run_files also frame_cnt, frame_skip_ref, frame_skip_dist, scale, sync,
   hwdec (auto, cuda, none), common_bitdepth, strict_length, max_pixels, and raw .yuv input's width, height, pixel_format, bitdepth.
   Both --aom_ctc and --nflx_ctc work too (value: the version), appending their features and models. */
VQTWIN_C_API int vqtwin_config_set(vqtwin_config* config, const char* key, const char* value);

/* A session for pictures of width x height, bitdepth 8..16, chroma a vqtwin_chroma. */
VQTWIN_C_API int vqtwin_session_open(const vqtwin_config* config, int width, int height, int bitdepth, int chroma,
                                     vqtwin_session** session);
/* Copies the pair and queues it as the next frame (the caller's memory is free again on return). Safe from
   several threads. */
VQTWIN_C_API int vqtwin_session_push(vqtwin_session* session, const vqtwin_picture* reference,
                                     const vqtwin_picture* distorted);
/* Waits for the frames, flushes, predicts; hands over the results (free them with vqtwin_results_free).
   On an error *results is still set when frames were computed (those frames' values), else NULL. */
VQTWIN_C_API int vqtwin_session_finish(vqtwin_session* session, vqtwin_results** results);
VQTWIN_C_API void vqtwin_session_free(vqtwin_session* session);

/* Scores two files as the CLI does. On an error *results holds the frames computed before it, or NULL. */
VQTWIN_C_API int vqtwin_run_files(const vqtwin_config* config, const char* reference, const char* distorted,
                                  vqtwin_results** results);

VQTWIN_C_API void vqtwin_results_free(vqtwin_results* results);
/* Frames scored (the pooling range). */
VQTWIN_C_API unsigned vqtwin_results_frame_count(const vqtwin_results* results);
/* Per-frame metric names in output order (model scores included); strings live as long as the results. */
VQTWIN_C_API size_t vqtwin_results_name_count(const vqtwin_results* results);
VQTWIN_C_API const char* vqtwin_results_name(const vqtwin_results* results, size_t i);
/* The model scores' names ("vmaf"), in model order. */
VQTWIN_C_API size_t vqtwin_results_score_count(const vqtwin_results* results);
VQTWIN_C_API const char* vqtwin_results_score_name(const vqtwin_results* results, size_t i);
VQTWIN_C_API int vqtwin_results_value(const vqtwin_results* results, const char* name, unsigned frame,
                                      double* value);
/* Pooled over the frames: method "mean", "harmonic_mean", "min", "max" or "percN" (e.g. "perc5"). */
VQTWIN_C_API int vqtwin_results_pooled(const vqtwin_results* results, const char* name, const char* method,
                                       double* value);
/* Clip-level values (e.g. psnr's apsnr_y). */
VQTWIN_C_API size_t vqtwin_results_aggregate_count(const vqtwin_results* results);
VQTWIN_C_API int vqtwin_results_aggregate(const vqtwin_results* results, size_t i, const char** name, double* value);
/* The receipt: which implementation computed each name ("psnr_cuda", "float_ssim (cpu fallback)", "psnr"). */
VQTWIN_C_API size_t vqtwin_results_receipt_count(const vqtwin_results* results);
VQTWIN_C_API int vqtwin_results_receipt(const vqtwin_results* results, size_t i, const char** name,
                                        const char** implementation);
/* Writes the CLI's output: format "json", "xml", "csv" or "sub"; path "-" = standard output. */
VQTWIN_C_API int vqtwin_results_write(const vqtwin_results* results, const char* path, const char* format,
                                      int precision);

#ifdef __cplusplus
}
#endif

#endif /* VQTWIN_VQTWIN_H */
