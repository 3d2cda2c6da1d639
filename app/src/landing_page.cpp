#include "landing_page.h"

#include "flightrec/common/version.h"

namespace flightrec::app {

std::string landing_page_html() {
  return R"(<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>flightrec</title></head>
<body>
<h1>flightrec</h1>
<p>A millisecond flight recorder for Linux. Version )" +
         std::string(kVersion) + R"(.</p>
<ul>
<li><a href="/metrics">/metrics</a>: Prometheus and OpenMetrics exposition</li>
<li><a href="/dump">/dump</a>: the recorded window at full resolution (<code>?from=-30s&amp;format=json|csv|raw|html</code>)</li>
<li><a href="/incidents">/incidents</a>: incidents recorded to disk, each at <code>/incidents/{id}</code> and as a page at <code>/incidents/{id}/view</code>; <code>POST /-/trigger?reason=TEXT</code> records one now</li>
<li><a href="/-/healthy">/-/healthy</a>: the process is up</li>
<li><a href="/-/ready">/-/ready</a>: frames are being recorded</li>
</ul>
</body>
</html>
)";
}

}  // namespace flightrec::app
