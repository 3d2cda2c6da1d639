#pragma once
#include <string>

namespace flightrec::app {

// The HTML served at `/`: what this is and links to every endpoint.
std::string landing_page_html();

}  // namespace flightrec::app
