// The HTML report (include/vqtwin/report.hpp): everything inline (SVG drawn here, a small script for hover
// and zoom, CSS), so the page works offline and from a mail attachment. The charts are drawn as static
// SVG first (readable without the script); the script only adds the hover read-out and the shared zoom.
#include "vqtwin/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "vqtwin/output.hpp"

namespace vqtwin {
namespace {

std::string html(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += ' ';
        else out += c;
    }
  }
  return out;
}

// A JSON string inside a <script> element: "</" never appears (it would end the element).
std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || c == '<' || c == '>' || c == '&') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string exact(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// h:mm:ss.mmm of frame `i` at `fps`; "" when the rate is unknown.
std::string timestamp(unsigned i, double fps) {
  if (!(fps > 0)) return "";
  const double t = i / fps;
  const long ms = std::lround(t * 1000);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld.%03ld", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60, ms % 1000);
  return buf;
}

// The frames pooled and written (every `subsample`-th of the frames read).
std::vector<unsigned> frame_list(const Results& r, unsigned subsample) {
  const unsigned n = r.frames ? r.frames : r.frame_count();
  std::vector<unsigned> out;
  for (unsigned i = 0; i < n; ++i)
    if (subsample <= 1 || i % subsample == 0) out.push_back(i);
  return out;
}

// The names in output order, the model scores first (the headline).
std::vector<std::string> ordered_names(const Results& r) {
  std::vector<std::string> out = r.scores;
  for (const auto& n : r.names())
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  out.erase(std::remove_if(out.begin(), out.end(), [&](const std::string& n) { return !r.has(n); }), out.end());
  return out;
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// One chart per family of metrics that share a scale.
std::string family_of(const std::string& name, const Results& r) {
  if (std::find(r.scores.begin(), r.scores.end(), name) != r.scores.end() || name.rfind("vmaf", 0) == 0)
    return "VMAF";
  if (contains(name, "psnr_hvs")) return "PSNR-HVS";
  if (contains(name, "mse")) return "MSE";
  if (contains(name, "anpsnr") || contains(name, "ansnr")) return "ANSNR";
  if (contains(name, "psnr")) return "PSNR (dB)";
  if (contains(name, "ms_ssim")) return "MS-SSIM";
  if (contains(name, "ssim")) return "SSIM";
  if (contains(name, "motion")) return "Motion";
  if (contains(name, "vif")) return "VIF";
  if (contains(name, "adm") || contains(name, "aim")) return "ADM";
  if (contains(name, "cambi")) return "CAMBI";
  if (contains(name, "ciede")) return "CIEDE2000";
  if (contains(name, "speed")) return "SpEED";
  if (contains(name, "moment")) return "Moments";
  return name;
}

constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

double nice_step(double range, int ticks) {
  const double raw = range / ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

struct Curve {
  std::size_t run;
  std::string name;
};

struct Chart {
  std::string family;
  std::vector<Curve> curves;
};

constexpr int kWidth = 960, kHeight = 250, kLeft = 64, kRight = 12, kTop = 10, kBottom = 28;
constexpr int kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;

class Writer {
 public:
  Writer(std::FILE* f, const std::vector<ReportRun>& runs, const ReportOptions& o) : f_(f), runs_(runs), o_(o) {
    for (const auto& run : runs) frames_.push_back(frame_list(*run.results, o.subsample));
    for (const auto& f2 : frames_)
      if (!f2.empty()) max_frame_ = std::max(max_frame_, f2.back());
    for (std::size_t i = 0; i < runs.size(); ++i)
      for (const auto& name : ordered_names(*runs[i].results)) {
        const std::string fam = family_of(name, *runs[i].results);
        auto it = std::find_if(charts_.begin(), charts_.end(), [&](const Chart& c) { return c.family == fam; });
        if (it == charts_.end()) it = charts_.insert(charts_.end(), Chart{fam, {}});
        it->curves.push_back({i, name});
      }
  }

  void write() {
    put("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    put("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    put("<title>" + html(o_.title) + "</title>\n<style>\n" + std::string(kStyle) + "</style>\n</head>\n<body>\n");
    put("<h1>" + html(o_.title) + "</h1>\n");
    for (std::size_t i = 0; i < runs_.size(); ++i)
      put("<p class=\"headline\" data-run=\"" + std::to_string(i) + "\">" + label_prefix(i) +
          html(headline(*runs_[i].results, o_.subsample)) + "</p>\n");
    put("<h2>Per frame</h2>\n<p class=\"hint\">Hover for the values of a frame; drag across a chart to zoom all "
        "charts to those frames; double-click or <button type=\"button\" id=\"reset\">reset zoom</button>.</p>\n");
    for (std::size_t c = 0; c < charts_.size(); ++c) chart(c);
    for (std::size_t i = 0; i < runs_.size(); ++i) run_tables(i);
    settings();
    data();
    put("<div id=\"tip\" hidden></div>\n<script>\n" + std::string(kScript) + "</script>\n</body>\n</html>\n");
  }

 private:
  void put(const std::string& s) { std::fputs(s.c_str(), f_); }

  std::string label_prefix(std::size_t run) const {
    return runs_.size() > 1 ? "<b>" + html(runs_[run].label) + "</b>: " : "";
  }

  std::string curve_label(const Curve& c) const {
    return runs_.size() > 1 ? runs_[c.run].label + " · " + c.name : c.name;
  }

  void chart(std::size_t index) {
    const Chart& ch = charts_[index];
    double lo = INFINITY, hi = -INFINITY;
    for (const Curve& c : ch.curves)
      for (unsigned i : frames_[c.run])
        if (auto v = runs_[c.run].results->value(c.name, i); v && std::isfinite(*v)) {
          lo = std::min(lo, *v);
          hi = std::max(hi, *v);
        }
    if (!(lo <= hi)) lo = 0, hi = 1;
    if (hi - lo < 1e-12) lo -= 1, hi += 1;
    const double pad = (hi - lo) * 0.05;
    lo -= pad;
    hi += pad;
    auto ypix = [&](double v) { return (hi - v) / (hi - lo) * kPlotH; };
    const double span = std::max(1u, max_frame_);

    const std::string id = "c" + std::to_string(index);
    put("<section class=\"chart\" id=\"" + id + "\" data-lo=\"" + exact(lo) + "\" data-hi=\"" + exact(hi) + "\">\n");
    put("<h3>" + html(ch.family) + "</h3>\n");
    put("<svg class=\"frame\" viewBox=\"0 0 " + std::to_string(kWidth) + " " + std::to_string(kHeight) +
        "\" role=\"img\" aria-label=\"" + html(ch.family) + " per frame\">\n");
    // Y ticks (fixed), x ticks (redrawn by the script on zoom).
    const double step = nice_step(hi - lo, 4);
    const int decimals = std::max(0, int(-std::floor(std::log10(step))));
    for (double t = std::ceil(lo / step) * step; t <= hi; t += step) {
      if (std::fabs(t) < step * 1e-9) t = 0;  // no "-0" label
      const double y = kTop + ypix(t);
      put("<line class=\"grid\" x1=\"" + std::to_string(kLeft) + "\" x2=\"" + std::to_string(kLeft + kPlotW) +
          "\" y1=\"" + fixed(y, 1) + "\" y2=\"" + fixed(y, 1) + "\"/><text class=\"yl\" x=\"" +
          std::to_string(kLeft - 6) + "\" y=\"" + fixed(y + 4, 1) + "\">" + fixed(t, decimals) + "</text>\n");
    }
    put("<g class=\"xt\">");
    const double xstep = std::max(1.0, nice_step(span, 8));
    for (double t = 0; t <= span; t += xstep) {
      const double x = kLeft + (t + 0.5) / (span + 1) * kPlotW;
      put("<text class=\"xl\" x=\"" + fixed(x, 1) + "\" y=\"" + std::to_string(kHeight - 8) + "\">" +
          fixed(t, 0) + "</text>");
    }
    put("</g>\n<rect class=\"box\" x=\"" + std::to_string(kLeft) + "\" y=\"" + std::to_string(kTop) + "\" width=\"" +
        std::to_string(kPlotW) + "\" height=\"" + std::to_string(kPlotH) + "\"/>\n");
    // The curves, in frame units across (so zoom is a viewBox change) and pixels down.
    put("<svg class=\"plot\" x=\"" + std::to_string(kLeft) + "\" y=\"" + std::to_string(kTop) + "\" width=\"" +
        std::to_string(kPlotW) + "\" height=\"" + std::to_string(kPlotH) + "\" viewBox=\"-0.5 0 " +
        exact(span + 1) + " " + std::to_string(kPlotH) + "\" preserveAspectRatio=\"none\">\n");
    for (std::size_t k = 0; k < ch.curves.size(); ++k) {
      const Curve& c = ch.curves[k];
      std::string points;
      auto flush = [&] {
        if (points.empty()) return;
        put("<polyline class=\"curve\" stroke=\"" + std::string(kPalette[k % 10]) + "\" points=\"" + points + "\"/>\n");
        points.clear();
      };
      const auto& frames = frames_[c.run];
      for (unsigned i : frames) {
        const auto v = runs_[c.run].results->value(c.name, i);
        if (!v || !std::isfinite(*v)) {
          flush();  // a gap where a frame has no finite value
          continue;
        }
        const std::string y = fixed(ypix(*v), 2);
        if (frames.size() == 1) points += fixed(i - 0.4, 1) + "," + y + " " + fixed(i + 0.4, 1) + "," + y;
        else points += std::to_string(i) + "," + y + " ";
      }
      flush();
    }
    put("<line class=\"cursor\" x1=\"0\" x2=\"0\" y1=\"0\" y2=\"" + std::to_string(kPlotH) +
        "\" visibility=\"hidden\"/><rect class=\"sel\" x=\"0\" y=\"0\" width=\"0\" height=\"" +
        std::to_string(kPlotH) + "\" visibility=\"hidden\"/>\n</svg>\n</svg>\n<p class=\"legend\">");
    for (std::size_t k = 0; k < ch.curves.size(); ++k)
      put("<span><i style=\"background:" + std::string(kPalette[k % 10]) + "\"></i>" + html(curve_label(ch.curves[k])) +
          "</span> ");
    put("</p>\n</section>\n");
  }

  void run_tables(std::size_t i) {
    const Results& r = *runs_[i].results;
    const std::vector<std::string> names = ordered_names(r);
    put("<h2>" + (runs_.size() > 1 ? html(runs_[i].label) + ": " : std::string()) + "pooled over " +
        std::to_string(frames_[i].size()) + " frames</h2>\n");
    const std::vector<std::pair<std::string, Pooling>> pools = {
        {"mean", {PoolMethod::kMean}},          {"harmonic mean", {PoolMethod::kHarmonicMean}},
        {"min", {PoolMethod::kMin}},            {"max", {PoolMethod::kMax}},
        {"5th percentile", {PoolMethod::kPercentile, 5}}, {"median", {PoolMethod::kPercentile, 50}}};
    put("<table class=\"pooled\" data-run=\"" + std::to_string(i) + "\">\n<tr><th>metric</th>");
    for (const auto& p : pools) put("<th>" + p.first + "</th>");
    put("<th>1% low</th></tr>\n");
    for (const auto& name : names) {
      put("<tr><td>" + html(name) + "</td>");
      for (const auto& [title, how] : pools) {
        const auto v = r.pooled(name, how, o_.subsample);
        put("<td class=\"v\" data-name=\"" + html(name) + "\" data-pool=\"" + html(how.name()) + "\">" +
            (v ? html(format_number(*v, -1)) : "") + "</td>");
      }
      const auto low = one_percent_low(r, name, o_.subsample);
      put("<td class=\"v\" data-name=\"" + html(name) + "\" data-pool=\"low1\">" +
          (low ? html(format_number(*low, -1)) : "") + "</td></tr>\n");
    }
    put("</table>\n");
    if (!r.aggregates().empty()) {
      put("<table class=\"pooled\"><tr><th>clip value</th><th></th></tr>\n");
      for (const auto& [name, v] : r.aggregates())
        put("<tr><td>" + html(name) + "</td><td class=\"v\">" + html(format_number(v, -1)) + "</td></tr>\n");
      put("</table>\n");
    }
    worst(i, names);
    inputs(i);
  }

  void worst(std::size_t i, const std::vector<std::string>& names) {
    if (names.empty()) return;
    const Results& r = *runs_[i].results;
    const std::string& key = names.front();
    const double fps = r.inputs.size() == 2 ? r.inputs[1].frame_rate : 0;
    std::vector<std::pair<double, unsigned>> rows;
    for (unsigned f : frames_[i])
      if (auto v = r.value(key, f)) rows.push_back({*v, f});
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (rows.size() > o_.worst_frames) rows.resize(o_.worst_frames);
    // Beside the key metric, the next few for context.
    std::vector<std::string> more;
    for (std::size_t k = 1; k < names.size() && more.size() < 3; ++k)
      if (names[k] == "psnr_y" || family_of(names[k], r) == "VMAF" || k < 3) more.push_back(names[k]);
    put("<h3>Worst frames by " + html(key) + "</h3>\n<table class=\"worst\"><tr><th>frame</th><th>time</th><th>" +
        html(key) + "</th>");
    for (const auto& m : more) put("<th>" + html(m) + "</th>");
    put("</tr>\n");
    for (const auto& [v, f] : rows) {
      put("<tr><td>" + std::to_string(f) + "</td><td>" + timestamp(f, fps) + "</td><td>" +
          html(format_number(v, -1)) + "</td>");
      for (const auto& m : more) {
        const auto w = r.value(m, f);
        put("<td>" + (w ? html(format_number(*w, -1)) : "") + "</td>");
      }
      put("</tr>\n");
    }
    put("</table>\n");
  }

  void inputs(std::size_t i) {
    const Results& r = *runs_[i].results;
    put("<h3>Inputs and computation</h3>\n<table class=\"facts\">\n");
    const char* role[] = {"reference", "distorted"};
    for (std::size_t k = 0; k < r.inputs.size() && k < 2; ++k) {
      const auto& in = r.inputs[k];
      put("<tr><th>" + std::string(role[k]) + "</th><td>" + html(in.path) + "</td><td>" + html(in.kind) + ", " +
          html(in.format) + (in.frame_rate > 0 ? ", " + fixed(in.frame_rate, 3) + " fps" : "") + "</td></tr>\n");
    }
    put("<tr><th>scored</th><td>" + std::to_string(frames_[i].size()) + " frames</td><td>" +
        std::to_string(r.width) + "x" + std::to_string(r.height) + "</td></tr>\n");
    for (const auto& [key, text] : r.input_conversions)
      put("<tr><th>" + html(key) + "</th><td colspan=\"2\">" + html(text) + "</td></tr>\n");
    if (r.sync_offset)
      put("<tr><th>sync offset</th><td colspan=\"2\">" + std::to_string(*r.sync_offset) + "</td></tr>\n");
    if (!r.scores.empty()) {
      std::string s;
      for (const auto& n : r.scores) s += (s.empty() ? "" : ", ") + n;
      put("<tr><th>model scores</th><td colspan=\"2\">" + html(s) + "</td></tr>\n");
    }
    // The receipt, grouped by implementation: what computed what.
    std::vector<std::pair<std::string, std::string>> by_impl;
    for (const auto& entry : r.receipt()) {
      const std::string& impl = entry.second;
      auto it = std::find_if(by_impl.begin(), by_impl.end(), [&](const auto& p) { return p.first == impl; });
      if (it == by_impl.end()) by_impl.push_back({impl, entry.first});
      else it->second += ", " + entry.first;
    }
    for (const auto& [impl, list] : by_impl)
      put("<tr><th>computed by</th><td class=\"impl\">" + html(impl) + "</td><td>" + html(list) + "</td></tr>\n");
    put("</table>\n");
  }

  void settings() {
    put("<h2>Settings</h2>\n<table class=\"facts\">\n");
    for (const auto& [k, v] : o_.settings) put("<tr><th>" + html(k) + "</th><td>" + html(v) + "</td></tr>\n");
    put("<tr><th>version</th><td>" + html(o_.version) + "</td></tr>\n</table>\n");
  }

  // The values behind the charts, exact (%.17g), for the hover read-out (and anyone who saves the page).
  void data() {
    std::string s = "{\"runs\":[";
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      const Results& r = *runs_[i].results;
      const double fps = r.inputs.size() == 2 ? r.inputs[1].frame_rate : 0;
      s += std::string(i ? "," : "") + "{\"label\":" + json_string(runs_[i].label) + ",\"fps\":" + exact(fps) +
           ",\"frames\":[";
      for (std::size_t k = 0; k < frames_[i].size(); ++k) s += (k ? "," : "") + std::to_string(frames_[i][k]);
      s += "],\"series\":{";
      bool first = true;
      for (const auto& name : ordered_names(r)) {
        s += std::string(first ? "" : ",") + json_string(name) + ":[";
        first = false;
        for (std::size_t k = 0; k < frames_[i].size(); ++k) {
          const auto v = r.value(name, frames_[i][k]);
          s += (k ? "," : "") + (v ? exact(*v) : std::string("null"));
        }
        s += "]";
      }
      s += "}}";
    }
    s += "],\"charts\":[";
    for (std::size_t c = 0; c < charts_.size(); ++c) {
      s += std::string(c ? "," : "") + "[";
      for (std::size_t k = 0; k < charts_[c].curves.size(); ++k)
        s += std::string(k ? "," : "") + "[" + std::to_string(charts_[c].curves[k].run) + "," +
             json_string(charts_[c].curves[k].name) + "," + json_string(kPalette[k % 10]) + "]";
      s += "]";
    }
    s += "],\"span\":" + std::to_string(std::max(1u, max_frame_)) + "}";
    put("<script type=\"application/json\" id=\"vqtwin-data\">" + s + "</script>\n");
  }

  static constexpr const char* kStyle = R"(body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1000px;color:#222;padding:0 12px}
h1{font-size:22px;margin:0 0 8px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}h3{font-size:15px;margin:16px 0 4px}
.headline{font-size:17px;margin:4px 0;font-variant-numeric:tabular-nums}.hint{color:#666;font-size:12px}
svg.frame{width:100%;height:auto;display:block;user-select:none}.grid{stroke:#eee}.box{fill:none;stroke:#999}
.yl{font-size:11px;text-anchor:end;fill:#555}.xl{font-size:11px;text-anchor:middle;fill:#555}
.curve{fill:none;stroke-width:1.6;vector-effect:non-scaling-stroke;stroke-linejoin:round;stroke-linecap:round}
.cursor{stroke:#444;stroke-width:1;vector-effect:non-scaling-stroke}.sel{fill:rgba(31,119,180,.15)}
.legend{margin:2px 0 0 64px;font-size:12px}.legend span{margin-right:12px;white-space:nowrap}
.legend i{display:inline-block;width:12px;height:3px;margin:0 4px 3px 0;vertical-align:middle}
table{border-collapse:collapse;margin:6px 0;font-variant-numeric:tabular-nums}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
td.v{text-align:right}th{background:#f6f6f6}.facts th{width:110px}
#tip{position:fixed;pointer-events:none;background:#fff;border:1px solid #999;padding:4px 8px;font-size:12px;box-shadow:0 2px 6px rgba(0,0,0,.2)}
#tip i{display:inline-block;width:10px;height:3px;margin-right:4px;vertical-align:middle}
)";

  static constexpr const char* kScript = R"((function () {
  'use strict';
  var data = JSON.parse(document.getElementById('vqtwin-data').textContent);
  var tip = document.getElementById('tip');
  var charts = Array.prototype.slice.call(document.querySelectorAll('section.chart'));
  var range = [0, data.span];
  var W = 960, L = 64, PW = 960 - 64 - 12, H = 250;
  function indexOf(run, frame) { return data.runs[run].frames.indexOf(frame); }
  function frameAt(plot, clientX) {
    var box = plot.getBoundingClientRect();
    var f = range[0] - 0.5 + (clientX - box.left) / box.width * (range[1] - range[0] + 1);
    return Math.max(range[0], Math.min(range[1], Math.round(f)));
  }
  function stamp(frame, fps) {
    if (!(fps > 0)) return '';
    var ms = Math.round(frame / fps * 1000);
    var s = Math.floor(ms / 1000);
    return ' · ' + Math.floor(s / 60) + ':' + ('0' + s % 60).slice(-2) + '.' + ('00' + ms % 1000).slice(-3);
  }
  function xTicks(section) {
    var g = section.querySelector('g.xt');
    while (g.firstChild) g.removeChild(g.firstChild);
    var span = range[1] - range[0], raw = Math.max(1, span) / 8;
    var mag = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10)), f = raw / mag;
    var step = Math.max(1, (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag);
    for (var t = Math.ceil(range[0] / step) * step; t <= range[1]; t += step) {
      var x = L + (t - range[0] + 0.5) / (span + 1) * PW;
      var text = document.createElementNS('http://www.w3.org/2000/svg', 'text');
      text.setAttribute('class', 'xl');
      text.setAttribute('x', x.toFixed(1));
      text.setAttribute('y', String(H - 8));
      text.textContent = String(t);
      g.appendChild(text);
    }
  }
  function zoom(a, b) {
    range = [Math.min(a, b), Math.max(a, b)];
    charts.forEach(function (section) {
      var plot = section.querySelector('svg.plot');
      plot.setAttribute('viewBox', (range[0] - 0.5) + ' 0 ' + (range[1] - range[0] + 1) + ' ' + plot.getAttribute('height'));
      xTicks(section);
    });
  }
  charts.forEach(function (section, c) {
    var plot = section.querySelector('svg.plot');
    var cursor = plot.querySelector('.cursor'), sel = plot.querySelector('.sel');
    var start = null;
    plot.addEventListener('mousemove', function (ev) {
      var frame = frameAt(plot, ev.clientX);
      cursor.setAttribute('x1', frame);
      cursor.setAttribute('x2', frame);
      cursor.setAttribute('visibility', 'visible');
      if (start !== null) {
        sel.setAttribute('x', Math.min(start, frame) - 0.5);
        sel.setAttribute('width', Math.abs(frame - start) + 1);
        sel.setAttribute('visibility', 'visible');
      }
      var lines = [];
      data.charts[c].forEach(function (curve) {
        var run = data.runs[curve[0]], k = indexOf(curve[0], frame);
        var v = k < 0 ? null : run.series[curve[1]][k];
        var label = (data.runs.length > 1 ? run.label + ' · ' : '') + curve[1];
        lines.push('<i style="background:' + curve[2] + '"></i>' + label + ': ' + (v === null ? '–' : v.toFixed(6)));
      });
      tip.innerHTML = '<b>frame ' + frame + stamp(frame, data.runs[0].fps) + '</b><br>' + lines.join('<br>');
      tip.hidden = false;
      var x = ev.clientX + 14, y = ev.clientY + 14;
      if (x + tip.offsetWidth > window.innerWidth) x = ev.clientX - tip.offsetWidth - 14;
      tip.style.left = x + 'px';
      tip.style.top = y + 'px';
    });
    plot.addEventListener('mouseleave', function () {
      cursor.setAttribute('visibility', 'hidden');
      tip.hidden = true;
    });
    plot.addEventListener('mousedown', function (ev) { start = frameAt(plot, ev.clientX); ev.preventDefault(); });
    window.addEventListener('mouseup', function (ev) {
      if (start === null) return;
      var end = frameAt(plot, ev.clientX);
      sel.setAttribute('visibility', 'hidden');
      if (Math.abs(end - start) >= 2) zoom(start, end);
      start = null;
    });
    plot.addEventListener('dblclick', function () { zoom(0, data.span); });
  });
  document.getElementById('reset').addEventListener('click', function () { zoom(0, data.span); });
  // The test's check of hover and zoom (tests/report/check_report.py opens the page at #selftest): a hover
  // reads the frame's exact value, a drag zooms every chart alike, a double-click resets.
  if (location.hash === '#selftest' && charts.length) {
    var plot = charts[0].querySelector('svg.plot'), box = plot.getBoundingClientRect();
    var at = function (f) { return Math.round(box.left + box.width * f); };  // events carry whole pixels
    var fire = function (target, type, f) {
      target.dispatchEvent(new MouseEvent(type, {clientX: at(f), clientY: Math.round(box.top + box.height / 2),
                                                 bubbles: true}));
    };
    fire(plot, 'mousemove', 0.5);
    var frame = frameAt(plot, at(0.5)), curve = data.charts[0][0];
    var want = data.runs[curve[0]].series[curve[1]][indexOf(curve[0], frame)].toFixed(6);
    var shown = tip.hidden ? '(hidden)' : tip.textContent;
    var hover = shown.indexOf('frame ' + frame) === 0 && shown.indexOf(want) > 0;
    fire(plot, 'mousedown', 0.25);
    fire(plot, 'mousemove', 0.75);
    fire(window, 'mouseup', 0.75);
    var vb = plot.getAttribute('viewBox');
    var zoomed = Number(vb.split(' ')[2]) < data.span + 1 && charts.every(function (s) {
      return s.querySelector('svg.plot').getAttribute('viewBox') === vb;
    });
    fire(plot, 'dblclick', 0.5);
    var reset = Number(plot.getAttribute('viewBox').split(' ')[2]) === data.span + 1;
    document.documentElement.setAttribute('data-selftest', hover && zoomed && reset ? 'ok' :
        'failed: hover ' + hover + ' (' + shown + ' / frame ' + frame + ' ' + want + '), zoom ' + zoomed + ', reset ' + reset);
  }
  document.documentElement.setAttribute('data-ready', 'true');
})();
)";

  std::FILE* f_;
  const std::vector<ReportRun>& runs_;
  const ReportOptions& o_;
  std::vector<std::vector<unsigned>> frames_;
  unsigned max_frame_ = 0;
  std::vector<Chart> charts_;
};

}  // namespace

std::optional<double> one_percent_low(const Results& r, std::string_view name, unsigned subsample) {
  std::vector<double> xs;
  for (unsigned i : frame_list(r, subsample)) {
    const auto v = r.value(name, i);
    if (!v) return std::nullopt;
    xs.push_back(*v);
  }
  if (xs.empty()) return std::nullopt;
  std::sort(xs.begin(), xs.end());
  const std::size_t k = std::max<std::size_t>(1, xs.size() / 100);
  double sum = 0;
  for (std::size_t i = 0; i < k; ++i) sum += xs[i];
  return sum / double(k);
}

std::string headline(const Results& r, unsigned subsample) {
  std::string out;
  auto pooled = [&](const std::string& name, PoolMethod m) { return r.pooled(name, {m}, subsample); };
  std::vector<std::string> heads = r.scores;
  if (heads.empty()) {
    const auto names = r.names();
    if (!names.empty() && names.front() != "psnr_y") heads.push_back(names.front());
  }
  for (const auto& name : heads) {
    const auto mean = pooled(name, PoolMethod::kMean);
    if (!mean) continue;
    out += (out.empty() ? "" : " · ") + (name == "vmaf" ? std::string("VMAF") : name) + " " + fixed(*mean, 2);
    const auto hm = pooled(name, PoolMethod::kHarmonicMean);
    const auto mn = pooled(name, PoolMethod::kMin);
    const auto low = one_percent_low(r, name, subsample);
    if (hm && mn && low)
      out += " (harmonic " + fixed(*hm, 2) + ", min " + fixed(*mn, 2) + ", 1% low " + fixed(*low, 2) + ")";
  }
  if (const auto psnr = pooled("psnr_y", PoolMethod::kMean))
    out += (out.empty() ? "" : " · ") + std::string("PSNR-Y ") + fixed(*psnr, 2) + " dB";
  const unsigned n = unsigned(frame_list(r, subsample).size());
  out += (out.empty() ? "" : " · ") + std::to_string(n) + " frames " + std::to_string(r.width) + "x" +
         std::to_string(r.height);
  return out;
}

void write_report(std::FILE* out, const std::vector<ReportRun>& runs, const ReportOptions& options) {
  Writer(out, runs, options).write();
}

}  // namespace vqtwin
