#include <catch2/catch.hpp>

#include "flightrec/replay/batch.h"
#include "flightrec/replay/format.h"
#include "flightrec/replay/model.h"
#include "flightrec/replay/table_layout.h"
#include "replay_fixture.h"

using namespace flightrec::replay;
using namespace flightrec::replay::testing;

namespace {

std::vector<int32_t> pids(const Table& table) {
  std::vector<int32_t> out;
  for (const auto& row : table.rows) out.push_back(row.pid);
  return out;
}

const Cell& cell(const Table& table, size_t row, std::string_view column) {
  return table.rows.at(row).cells.at(*column_named(table, column));
}

Table at_end(const Model& model, Tab tab, Arrangement how = {}) {
  return model.table(model.timeline().size() - 1, 1'000'000'000, tab, how);
}

}  // namespace

TEST_CASE("processesSortByCpuByDefaultBiggestFirst", "[replay][table]") {
  const Model model(fixture(), fixture_users());
  const Table table = at_end(model, Tab::processes);
  REQUIRE(table.rows.size() == 7);
  CHECK(pids(table).front() == 202);
  CHECK(pids(table)[1] == 201);
  CHECK(cell(table, 0, "CPU%").text == "100.0");
  CHECK(cell(table, 0, "USER").text == "alice");
  CHECK(cell(table, 0, "COMMAND").text == "stress --cpu 1");
}

TEST_CASE("processesSortByAnyColumnAndReverse", "[replay][table]") {
  const Model model(fixture(), fixture_users());
  Arrangement by_memory;
  by_memory.sort_column = *column_named(at_end(model, Tab::processes), "mem%");
  CHECK(pids(at_end(model, Tab::processes, by_memory)).front() == 201);
  Arrangement by_pid;
  by_pid.sort_column = *column_named(at_end(model, Tab::processes), "PID");
  CHECK(pids(at_end(model, Tab::processes, by_pid)) ==
        std::vector<int32_t>{1, 2, 100, 200, 201, 202, 300});
  by_pid.reverse = true;
  CHECK(pids(at_end(model, Tab::processes, by_pid)).front() == 300);
}

TEST_CASE("processesShowKernelThreadsAndExitedProcessesPlainly", "[replay][table]") {
  const Model model(fixture(), fixture_users());
  Arrangement by_pid;
  by_pid.sort_column = 0;
  const Table table = model.table(model.timeline().at_or_before(kStartNs + 1'750'000'000), 0,
                                  Tab::processes, by_pid);
  CHECK(cell(table, 1, "COMMAND").text == "[kthreadd]");
  const auto exited =
      std::find_if(table.rows.begin(), table.rows.end(), [](const Row& r) { return r.pid == 203; });
  REQUIRE(exited != table.rows.end());
  CHECK(exited->cells.back().text == "make -j2 (exited)");
}

TEST_CASE("filterKeepsMatchingRowsCaseInsensitively", "[replay][table]") {
  const Model model(fixture(), fixture_users());
  Arrangement how;
  how.filter = "NGINX";
  CHECK(pids(at_end(model, Tab::processes, how)) == std::vector<int32_t>{300});
  how.filter = "alice";  // alice's three processes by user, sshd by its command line
  CHECK(pids(at_end(model, Tab::processes, how)) == std::vector<int32_t>{202, 201, 100, 200});
}

TEST_CASE("treeNestsChildrenUnderParentsInSortOrder", "[replay][table]") {
  const Model model(fixture(), fixture_users());
  Arrangement how;
  how.tree = true;
  const Table table = at_end(model, Tab::processes, how);
  // Roots (init, kthreadd) by CPU, then each parent's children by CPU.
  CHECK(pids(table) == std::vector<int32_t>{1, 300, 100, 200, 202, 201, 2});
  CHECK(table.rows[4].depth == 3);
  CHECK(table.rows[4].cells.back().text == "    `- stress --cpu 1");
}

TEST_CASE("networkTabListsPerProcessTrafficNettopStyle", "[replay][table]") {
  const Model model(fixture(), fixture_users());
  const Table table = at_end(model, Tab::network);
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows[0].pid == 300);
  CHECK(cell(table, 0, "DEV").text == "eth0");
  CHECK(cell(table, 0, "XMIT_PK").text == std::to_string(12 * 40));
  CHECK(cell(table, 0, "XMIT_KB").text == std::to_string(12 * 50'000 / 1024));
  CHECK(cell(table, 0, "TX/s").number == Approx(200'000.0));
  CHECK(cell(table, 1, "COMMAND").text == "(unattributed)");
}

TEST_CASE("connectionsAndListeningSplitTheSocketTable", "[replay][table]") {
  const Model model(fixture(), fixture_users());
  const Table connections = at_end(model, Tab::connections);
  REQUIRE(connections.rows.size() == 2);
  CHECK(cell(connections, 0, "REMOTE").text == "10.0.0.2:51000");
  CHECK(cell(connections, 0, "STATE").text == "ESTAB");
  CHECK(cell(connections, 0, "COMMAND").text == "nginx: worker process");
  const Table listening = at_end(model, Tab::listening);
  REQUIRE(listening.rows.size() == 3);
  CHECK(cell(listening, 0, "LOCAL").text == "0.0.0.0:22");
  CHECK(cell(listening, 1, "PROTO").text == "udp");
}

TEST_CASE("twoAmountsInOneColumnEachCarryTheirUnit", "[replay][table]") {
  ReplayData data = fixture();
  for (auto& socket : data.process_frames.back().sockets) {
    if (socket.remote != "10.0.0.2:51000") continue;
    socket.tx_bytes = 611;  // a request sent, a large answer received: not "611/610M"
    socket.rx_bytes = 610 * kMiB;
  }
  const Model model(std::move(data), fixture_users());
  CHECK(cell(at_end(model, Tab::connections), 0, "TX/RX").text == "611B/610M");
  CHECK(format_bytes_with_unit(0.0) == "0");
  CHECK(format_bytes_with_unit(999.0) == "999B");
  CHECK(format_bytes_with_unit(1024.0) == "1.0K");
  CHECK(format_bytes_with_unit(std::nullopt) == "-");
}

TEST_CASE("sessionsGroupProcessesBySessionAndUser", "[replay][table]") {
  const Model model(fixture(), fixture_users());
  const Table table = at_end(model, Tab::sessions);
  // Session 200 (alice on pts/0) holds bash, the leak and the burner; kernel threads are left out.
  REQUIRE(table.rows.size() == 4);
  CHECK(table.rows[0].pid == 200);
  CHECK(cell(table, 0, "USER").text == "alice");
  CHECK(cell(table, 0, "TTY").text == "pts/0");
  CHECK(cell(table, 0, "PROCS").text == "3");
  CHECK(cell(table, 0, "CPU%").number == Approx(120.0));
  CHECK(cell(table, 0, "LEADER").text == "-bash");
}

TEST_CASE("tabsAndColumnsAreFoundByName", "[replay][table]") {
  CHECK(tab_named("Network") == Tab::network);
  CHECK_FALSE(tab_named("disks").has_value());
  const Model model(fixture(), fixture_users());
  const Table table = at_end(model, Tab::processes);
  CHECK(column_named(table, "cpu%").has_value());
  CHECK(column_named(table, "cpu_percent") == column_named(table, "CPU%"));
  CHECK_FALSE(column_named(table, "XMIT_PK").has_value());
}

TEST_CASE("commandsShowTheProgramWithoutItsPathAndJsonKeepsTheWholeLine", "[replay][table]") {
  const Model model(fixture(), fixture_users());
  Arrangement by_pid;
  by_pid.sort_column = 0;  // PID, smallest first
  const Table table = at_end(model, Tab::processes, by_pid);
  REQUIRE(pids(table).front() == 1);
  CHECK(cell(table, 0, "COMMAND").text == "init");
  CHECK(cell(table, 0, "COMMAND").full_text == "/sbin/init");
  const std::vector<int32_t> all = pids(table);
  const auto leak = static_cast<size_t>(std::find(all.begin(), all.end(), 201) - all.begin());
  CHECK(cell(table, leak, "COMMAND").text == "python3 leak.py");
  // A command without a path is left as it is.
  CHECK(cell(table, 2, "COMMAND").text == "sshd: alice [priv]");
  CHECK(cell(table, 2, "COMMAND").full_text.empty());
  // Search and filter still see the path.
  CHECK(row_matches(table.rows[0], "/sbin/"));
  BatchView view;
  view.cursor = model.timeline().size() - 1;
  CHECK_THAT(render_batch(model, view, BatchFormat::json),
             Catch::Contains("\"command\": \"/usr/bin/python3 leak.py\""));
}

TEST_CASE("narrowScreensDropTrafficColumnsSoCommandsStayReadable", "[replay][table]") {
  const Model model(fixture(), fixture_users());
  const Table table = at_end(model, Tab::processes);
  const auto names = [&](const TableLayout& layout) {
    std::string out;
    for (const size_t c : layout.columns) out += table.columns[c].name + ",";
    return out;
  };
  const TableLayout narrow = layout_table(table, 80);
  CHECK(names(narrow) == "PID,USER,CPU%,MEM%,RSS,RGROW,COMMAND,");
  const std::string header = layout_line(table, narrow, nullptr, Overflow::cut);
  REQUIRE(header.find("COMMAND") != std::string::npos);
  CHECK(80 - header.find("COMMAND") >= 30);
  CHECK_THAT(names(layout_table(table, 120)), Catch::Contains("DISK R/W,NET TX/RX,TIME+,"));
  // Batch text keeps every column.
  CHECK_THAT(render_table_text(table), Catch::Contains("DISK R/W"));
}

TEST_CASE("addressColumnsWidenToTheirAddressesAtEighty", "[replay][table]") {
  const Model model(fixture(), fixture_users());
  Table table = at_end(model, Tab::connections);
  const std::string v6 = "[2001:db8:1234:5678::1]:443";
  const std::string v6_remote = "[2001:db8:9999:aaaa::77]:51000";
  table.rows[0].cells[1].text = v6;
  table.rows[0].cells[2].text = v6_remote;
  const TableLayout layout = layout_table(table, 80);
  const std::string line = layout_line(table, layout, &table.rows[0], Overflow::cut);
  CHECK_THAT(line, Catch::Contains(v6 + " "));
  CHECK_THAT(line, Catch::Contains(v6_remote + " "));
  CHECK_THAT(layout_line(table, layout, nullptr, Overflow::cut), !Catch::Contains("TX/RX"));
  // The listening tab: whole addresses and the command within 80 columns.
  const Table listening = at_end(model, Tab::listening);
  const std::string row =
      layout_line(listening, layout_table(listening, 80), &listening.rows[0], Overflow::cut);
  CHECK(row.size() <= 80);
  CHECK_THAT(row, Catch::Contains("0.0.0.0:22"));
}
