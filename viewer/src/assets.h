#pragma once
// The page's static parts, embedded at build time by viewer/CMakeLists.txt (embed_assets.cmake):
// uPlot's minified script and stylesheet from npm, and the page's own script and stylesheet from
// viewer/web/src. None of them contains "</script" or "</style" (the embedding checks).
#include <string_view>

namespace flightrec::viewer::assets {

extern const std::string_view kUplotJs;
extern const std::string_view kUplotCss;
extern const std::string_view kViewerJs;
extern const std::string_view kViewerCss;

}  // namespace flightrec::viewer::assets
