#pragma once
// Checks an SVG's text labels the way a reader would: every label inside the picture and no two
// labels overlapping.  Text extents are estimated as the renderers estimate them (0.6 em a glyph,
// 0.9 em above the baseline and 0.3 em below), so the check matches what placement assumed; the
// rendering itself is checked with rsvg-convert (render_svg).

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace sling::testing_support {

struct SvgLabel {
  std::string text;
  double x0, y0, x1, y1;
};

inline double svg_attribute(const std::string& tag, const std::string& name, double fallback) {
  const std::regex pattern("\\s" + name + "=\"([-0-9.]+)\"");
  std::smatch match;
  return std::regex_search(tag, match, pattern) ? std::stod(match[1].str()) : fallback;
}

inline std::string svg_text_attribute(const std::string& tag, const std::string& name,
                                      const std::string& fallback) {
  const std::regex pattern("\\s" + name + "=\"([^\"]*)\"");
  std::smatch match;
  return std::regex_search(tag, match, pattern) ? match[1].str() : fallback;
}

// The labels of at least `min_font` size, with their estimated boxes.  Font size and anchor are
// inherited from the enclosing <svg> and <g> elements.
inline std::vector<SvgLabel> svg_labels(const std::string& svg, double min_font) {
  std::vector<SvgLabel> labels;
  std::vector<std::pair<double, std::string>> inherited{{16.0, "start"}};
  const std::regex element("<(/?)(svg|g|text)(\\s[^>]*)?>([^<]*)");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), element);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    const bool closing = m[1].length() > 0;
    const std::string name = m[2].str(), tag = m[3].str();
    if (name != "text") {
      if (closing) {
        if (inherited.size() > 1) inherited.pop_back();
      } else {
        inherited.push_back({svg_attribute(tag, "font-size", inherited.back().first),
                             svg_text_attribute(tag, "text-anchor", inherited.back().second)});
      }
      continue;
    }
    if (closing) continue;
    const double size = svg_attribute(tag, "font-size", inherited.back().first);
    const std::string anchor = svg_text_attribute(tag, "text-anchor", inherited.back().second);
    const std::string text = m[4].str();
    if (size < min_font || text.empty()) continue;
    const double width = 0.6 * size * static_cast<double>(text.size());
    const double x = svg_attribute(tag, "x", 0), y = svg_attribute(tag, "y", 0);
    const double x0 = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x;
    labels.push_back({text, x0, y - 0.9 * size, x0 + width, y + 0.3 * size});
  }
  return labels;
}

// One line per problem: a label outside the picture or two labels overlapping.
inline std::vector<std::string> svg_label_problems(const std::string& svg, double min_font) {
  std::vector<std::string> problems;
  const std::smatch::string_type head = svg.substr(0, svg.find('>'));
  const double width = svg_attribute(head, "width", 1e9),
               height = svg_attribute(head, "height", 1e9);
  const std::vector<SvgLabel> labels = svg_labels(svg, min_font);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const SvgLabel& a = labels[i];
    if (a.x0 < 0 || a.y0 < 0 || a.x1 > width || a.y1 > height) {
      problems.push_back("'" + a.text + "' is cut at the picture's edge");
    }
    for (std::size_t j = i + 1; j < labels.size(); ++j) {
      const SvgLabel& b = labels[j];
      if (a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1) {
        problems.push_back("'" + a.text + "' overlaps '" + b.text + "'");
      }
    }
  }
  return problems;
}

// Renders `svg` to PNG with rsvg-convert: "" on success, otherwise the reason.
inline std::string render_svg(const std::string& svg, const std::string& name) {
  if (std::system("command -v rsvg-convert >/dev/null 2>&1") != 0) {
    return "rsvg-convert is missing (Debian librsvg2-bin; the bootstrap installs it)";
  }
  const auto dir = std::filesystem::temp_directory_path();
  const auto in = dir / (name + ".svg"), out = dir / (name + ".png");
  std::ofstream(in) << svg;
  const std::string command = "rsvg-convert '" + in.string() + "' -o '" + out.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  if (status != 0) return "rsvg-convert failed on " + name;
  if (!std::filesystem::exists(out) || std::filesystem::file_size(out) == 0) {
    return "rsvg-convert wrote no picture for " + name;
  }
  return "";
}

}  // namespace sling::testing_support
