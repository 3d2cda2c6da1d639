# flightrec_component(name [PUBLIC deps...] [PRIVATE deps...])
# One static library per top-level folder: sources are every src/**/*.cpp, headers live in include/.
# Globbing keeps parallel work on one component from fighting over a source list.
function(flightrec_component name)
  cmake_parse_arguments(ARG "" "" "PUBLIC;PRIVATE" ${ARGN})
  file(GLOB_RECURSE _srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp)
  add_library(flightrec_${name} STATIC ${_srcs})
  add_library(flightrec::${name} ALIAS flightrec_${name})
  target_include_directories(flightrec_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(flightrec_${name} PUBLIC ${ARG_PUBLIC} PRIVATE ${ARG_PRIVATE})
  flightrec_warnings(flightrec_${name})
endfunction()
