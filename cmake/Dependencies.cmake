# All dependencies come from Debian packages (deps/debian-packages.txt), found by their CMake configs.
find_package(Threads REQUIRED)
find_package(prometheus-cpp CONFIG REQUIRED COMPONENTS core)
find_package(civetweb CONFIG REQUIRED)
find_package(yaml-cpp CONFIG REQUIRED)
find_package(Boost 1.74 REQUIRED)   # Lockfree is header-only
find_package(ZLIB REQUIRED)
find_package(nlohmann_json 3 CONFIG REQUIRED)  # alert webhook payloads (trigger)
if(FLIGHTREC_TESTS)
  find_package(Catch2 2 CONFIG REQUIRED)
endif()
