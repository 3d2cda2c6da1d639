# cmake -DSOURCE_DIR=<checkout> -P check_layers.cmake
#
# Keeps the layers of docs/ARCHITECTURE.md true. Against the one table of allowed dependencies,
# cmake/layers.txt, it checks
#   - the table itself: every component folder is in it once, and each row uses only folders of the
#     rows above it (so no cycle, nothing pointing upwards, no consumer using another);
#   - every #include "flightrec/<component>/..." in a component's folder (include/, src/, bpf/, and
#     app/main.cpp) and every flightrec::<component> its CMake files link;
#   - the layer table of docs/ARCHITECTURE.md, which must say the same, row for row;
#   - every BPF program: <component>/bpf/<name>.bpf.c, built by that component's CMakeLists.txt
#     and loaded by its src/ebpf/ (the only place that includes <name>.skel.h).
# Each violation is one line naming the file and what to change; any fails the test.
cmake_minimum_required(VERSION 3.25)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<checkout> -P check_layers.cmake")
endif()
set(_table_file ${SOURCE_DIR}/cmake/layers.txt)
set(_doc_file ${SOURCE_DIR}/docs/ARCHITECTURE.md)
set(_violations 0)

# violation(<text>...): one line on standard error, the pieces joined.
function(violation)
  string(JOIN "" _text ${ARGV})
  message(NOTICE "layers: ${_text}")
  math(EXPR _count "${_violations} + 1")
  set(_violations ${_count} PARENT_SCOPE)
endfunction()

# "a b c" -> "a, b, c", for messages.
function(joined out)
  string(REPLACE ";" ", " _text "${ARGN}")
  if(_text STREQUAL "")
    set(_text "nothing of ours")
  endif()
  set(${out} "${_text}" PARENT_SCOPE)
endfunction()

# --- the table ------------------------------------------------------------------------------------
# Per row i: _row_<i>_layer, _row_<i>_folders, _row_<i>_uses (a list, "everything" expanded) and
# _row_<i>_everything. Per component c: _uses_<c>.
file(STRINGS ${_table_file} _lines)
set(_rows 0)
set(_components)
foreach(_line IN LISTS _lines)
  if(_line MATCHES "^[ \t]*(#|$)")
    continue()
  endif()
  if(NOT _line MATCHES "^([^|]+)\\|([^|]+)\\|([^|]+)$")
    violation("cmake/layers.txt: \"${_line}\" is not \"layer | folders | may use\"")
    continue()
  endif()
  string(STRIP "${CMAKE_MATCH_1}" _layer)
  string(STRIP "${CMAKE_MATCH_2}" _folders)
  string(STRIP "${CMAKE_MATCH_3}" _uses)
  separate_arguments(_folders UNIX_COMMAND "${_folders}")
  separate_arguments(_uses UNIX_COMMAND "${_uses}")
  set(_row_${_rows}_everything FALSE)
  if(_uses STREQUAL "nothing")
    set(_uses)
  elseif(_uses STREQUAL "everything")
    set(_uses ${_components})
    set(_row_${_rows}_everything TRUE)
  endif()
  foreach(_used IN LISTS _uses)
    if(NOT _used IN_LIST _components)
      violation("cmake/layers.txt: ${_layer} (${_folders}) may use ${_used}, which is not a "
                "folder of a row above it: a component uses only the layers below its own")
    endif()
  endforeach()
  foreach(_folder IN LISTS _folders)
    if(_folder IN_LIST _components)
      violation("cmake/layers.txt: ${_folder} is in two rows")
    endif()
    set(_uses_${_folder} ${_uses})
  endforeach()
  list(APPEND _components ${_folders})
  set(_row_${_rows}_layer "${_layer}")
  set(_row_${_rows}_folders ${_folders})
  set(_row_${_rows}_uses ${_uses})
  math(EXPR _rows "${_rows} + 1")
endforeach()

# Every folder that builds a component library is in the table, and every row names one.
file(GLOB _top LIST_DIRECTORIES true RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*)
foreach(_dir IN LISTS _top)
  if(EXISTS ${SOURCE_DIR}/${_dir}/CMakeLists.txt)
    file(STRINGS ${SOURCE_DIR}/${_dir}/CMakeLists.txt _declares REGEX "^[ \t]*flightrec_component\\(")
    if(_declares AND NOT _dir IN_LIST _components)
      violation("${_dir}/CMakeLists.txt: the component ${_dir} is in no row of cmake/layers.txt "
                "(and of the layer table in docs/ARCHITECTURE.md)")
    endif()
  endif()
endforeach()
foreach(_component IN LISTS _components)
  if(NOT EXISTS ${SOURCE_DIR}/${_component}/CMakeLists.txt)
    violation("cmake/layers.txt: ${_component}/ is not a component folder")
  endif()
endforeach()

# --- includes and links ---------------------------------------------------------------------------
# check_use(<component> <used> <where>): one use, checked against the table.
function(check_use component used where)
  if(used STREQUAL component)
    return()
  endif()
  if(NOT used IN_LIST _components)
    violation("${where}: ${used} is not a component of cmake/layers.txt")
  elseif(NOT used IN_LIST _uses_${component})
    joined(_allowed ${_uses_${component}})
    violation("${where}: ${component} may not use ${used}, only ${_allowed} "
              "(cmake/layers.txt, docs/ARCHITECTURE.md \"Layers, and which way they point\")")
  endif()
  set(_violations ${_violations} PARENT_SCOPE)
endfunction()

set(_include_count 0)
set(_link_count 0)
set(_skeleton_includes)  # "<component>/<file>|<skeleton name>"
foreach(_component IN LISTS _components)
  file(GLOB_RECURSE _sources RELATIVE ${SOURCE_DIR}
       ${SOURCE_DIR}/${_component}/*.h ${SOURCE_DIR}/${_component}/*.hpp
       ${SOURCE_DIR}/${_component}/*.c ${SOURCE_DIR}/${_component}/*.cc
       ${SOURCE_DIR}/${_component}/*.cpp)
  foreach(_source IN LISTS _sources)
    file(STRINGS ${SOURCE_DIR}/${_source} _includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
    foreach(_include IN LISTS _includes)
      if(_include MATCHES "[\"<]flightrec/([A-Za-z0-9_]+)/")
        math(EXPR _include_count "${_include_count} + 1")
        string(STRIP "${_include}" _include)
        check_use(${_component} ${CMAKE_MATCH_1} "${_source}: ${_include}")
      elseif(_include MATCHES "\"([A-Za-z0-9_]+)\\.skel\\.h\"")
        list(APPEND _skeleton_includes "${_source}|${CMAKE_MATCH_1}")
      endif()
    endforeach()
  endforeach()

  file(GLOB_RECURSE _cmake_files RELATIVE ${SOURCE_DIR}
       ${SOURCE_DIR}/${_component}/CMakeLists.txt ${SOURCE_DIR}/${_component}/*.cmake)
  foreach(_cmake_file IN LISTS _cmake_files)
    file(STRINGS ${SOURCE_DIR}/${_cmake_file} _cmake_lines REGEX "flightrec::")
    foreach(_cmake_line IN LISTS _cmake_lines)
      string(REGEX REPLACE "#.*" "" _code "${_cmake_line}")  # a comment links nothing
      string(REGEX MATCHALL "flightrec::[A-Za-z0-9_]+" _links "${_code}")
      foreach(_link IN LISTS _links)
        string(REPLACE "flightrec::" "" _linked ${_link})
        math(EXPR _link_count "${_link_count} + 1")
        check_use(${_component} ${_linked} "${_cmake_file}: links flightrec::${_linked}")
      endforeach()
    endforeach()
  endforeach()
endforeach()

# --- the doc's table ------------------------------------------------------------------------------
# The first table after the heading. Folders are written `name/` in the second column, and so are
# the components a row may use in the third; a row that uses none says "nothing ...", the app's row
# "everything ..." (every folder above it).
file(STRINGS ${_doc_file} _doc_lines)
set(_in_section FALSE)
set(_doc_rows 0)
foreach(_line IN LISTS _doc_lines)
  if(_line STREQUAL "## Layers, and which way they point")
    set(_in_section TRUE)
    continue()
  endif()
  if(NOT _in_section)
    continue()
  endif()
  if(NOT _line MATCHES "^\\|")
    if(_doc_rows GREATER 0 OR _line MATCHES "^## ")
      break()  # past the table, or a section without one
    endif()
    continue()
  endif()
  if(_line MATCHES "^\\| *layer *\\|" OR _line MATCHES "^\\|( *:?-+:? *\\|)+$")
    continue()  # header and separator
  endif()
  set(_i ${_doc_rows})
  math(EXPR _doc_rows "${_doc_rows} + 1")
  if(NOT _line MATCHES "^\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|$")
    violation("docs/ARCHITECTURE.md: layer table row ${_doc_rows} is not \"| layer | folders | may use |\"")
    continue()
  endif()
  string(STRIP "${CMAKE_MATCH_1}" _layer)
  set(_folders_cell "${CMAKE_MATCH_2}")
  string(STRIP "${CMAKE_MATCH_3}" _uses_cell)
  string(REGEX MATCHALL "`[a-z_]+/`" _folders "${_folders_cell}")
  string(REGEX REPLACE "[`/]" "" _folders "${_folders}")
  string(REGEX MATCHALL "`[a-z_]+/`" _uses "${_uses_cell}")
  string(REGEX REPLACE "[`/]" "" _uses "${_uses}")
  if(_i GREATER_EQUAL _rows)
    violation("docs/ARCHITECTURE.md: layer table row ${_doc_rows} (${_layer}) is not in cmake/layers.txt")
    continue()
  endif()
  if(NOT _uses AND _uses_cell MATCHES "^everything")
    if(_row_${_i}_everything)
      set(_uses ${_row_${_i}_uses})
    else()
      set(_uses "everything")  # reported below as differing
    endif()
  elseif(NOT _uses AND NOT _uses_cell MATCHES "^nothing")
    violation("docs/ARCHITECTURE.md: layer table row ${_doc_rows} (${_layer}) names what it may use "
              "as `folder/`, or says \"nothing\" or \"everything\"")
  endif()
  set(_want_uses ${_row_${_i}_uses})
  list(SORT _uses)
  list(SORT _want_uses)
  if(NOT _layer STREQUAL _row_${_i}_layer OR NOT "${_folders}" STREQUAL "${_row_${_i}_folders}" OR
     NOT "${_uses}" STREQUAL "${_want_uses}")
    joined(_doc_uses ${_uses})
    joined(_table_uses ${_want_uses})
    joined(_doc_folders ${_folders})
    joined(_table_folders ${_row_${_i}_folders})
    violation("docs/ARCHITECTURE.md: layer table row ${_doc_rows} is ${_layer} (${_doc_folders}) "
              "using ${_doc_uses}, but row ${_doc_rows} of cmake/layers.txt is ${_row_${_i}_layer} "
              "(${_table_folders}) using ${_table_uses}")
  endif()
endforeach()
if(NOT _doc_rows EQUAL _rows)
  violation("docs/ARCHITECTURE.md: the layer table under \"## Layers, and which way they point\" "
            "has ${_doc_rows} rows, cmake/layers.txt ${_rows}")
endif()

# --- BPF programs ---------------------------------------------------------------------------------
# Searched in the whole checkout but build trees (a folder holding a CMakeCache.txt) and hidden ones.
set(_bpf_programs)
foreach(_dir IN LISTS _top)
  if(NOT IS_DIRECTORY ${SOURCE_DIR}/${_dir} OR _dir MATCHES "^\\." OR
     EXISTS ${SOURCE_DIR}/${_dir}/CMakeCache.txt)
    continue()
  endif()
  file(GLOB_RECURSE _found RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${_dir}/*.bpf.c)
  list(APPEND _bpf_programs ${_found})
endforeach()
foreach(_program IN LISTS _bpf_programs)
  if(NOT _program MATCHES "^([a-z_]+)/bpf/([A-Za-z0-9_]+)\\.bpf\\.c$" OR
     NOT CMAKE_MATCH_1 IN_LIST _components)
    violation("${_program}: a BPF program lives in <component>/bpf/ of the component that loads it")
    continue()
  endif()
  set(_owner ${CMAKE_MATCH_1})
  set(_name ${CMAKE_MATCH_2})
  file(STRINGS ${SOURCE_DIR}/${_owner}/CMakeLists.txt _built
       REGEX "flightrec_bpf_skeleton\\(flightrec_${_owner}[ \t]+${_name}([ \t)]|$)")
  if(NOT _built)
    violation("${_owner}/CMakeLists.txt: no flightrec_bpf_skeleton(flightrec_${_owner} ${_name} ...) "
              "for ${_program}")
  endif()
  set(_loaded FALSE)
  foreach(_use IN LISTS _skeleton_includes)
    string(REPLACE "|" ";" _use "${_use}")
    list(GET _use 0 _includer)
    list(GET _use 1 _skeleton)
    if(NOT _skeleton STREQUAL _name)
      continue()
    endif()
    if(_includer MATCHES "^${_owner}/src/ebpf/")
      set(_loaded TRUE)
    else()
      violation("${_includer}: includes ${_name}.skel.h, which only ${_owner}/src/ebpf/ loads "
                "(its program is ${_program})")
    endif()
  endforeach()
  if(NOT _loaded)
    violation("${_program}: no file in ${_owner}/src/ebpf/ includes ${_name}.skel.h: a BPF "
              "program lives in the component whose src/ebpf/ loads it")
  endif()
endforeach()

# A skeleton included with no program of that name anywhere.
set(_program_names)
foreach(_program IN LISTS _bpf_programs)
  get_filename_component(_file ${_program} NAME)
  string(REGEX REPLACE "\\.bpf\\.c$" "" _file ${_file})
  list(APPEND _program_names ${_file})
endforeach()
foreach(_use IN LISTS _skeleton_includes)
  string(REPLACE "|" ";" _use "${_use}")
  list(GET _use 0 _includer)
  list(GET _use 1 _skeleton)
  if(NOT _skeleton IN_LIST _program_names)
    violation("${_includer}: includes ${_skeleton}.skel.h, but there is no ${_skeleton}.bpf.c")
  endif()
endforeach()

list(LENGTH _components _component_count)
list(LENGTH _bpf_programs _bpf_count)
if(_violations GREATER 0)
  # A script's FATAL_ERROR exits with status 1, which fails the test.
  message(FATAL_ERROR "layers: ${_violations} problem(s), each named above")
endif()
message(STATUS "layers: ${_component_count} components in ${_rows} rows, ${_include_count} includes, "
               "${_link_count} links, ${_bpf_count} BPF programs: as cmake/layers.txt and "
               "docs/ARCHITECTURE.md say")
