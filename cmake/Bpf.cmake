# The eBPF programs: each component keeps its BPF C in <component>/bpf/<name>.bpf.c, beside the code
# that reads it, and builds it with flightrec_bpf_skeleton(). clang compiles it at build time
# against this machine's kernel BTF, and bpftool embeds the object into the component's library as
# a libbpf skeleton, so nothing is compiled or downloaded at run time. Without the tools every
# component still builds: its eBPF code is compiled out and its factories return null with
# FLIGHTREC_EBPF_UNAVAILABLE, which says what was missing.
#
# The tools are looked for once, here, and vmlinux.h is generated once for every component.
set(FLIGHTREC_VMLINUX_BTF /sys/kernel/btf/vmlinux CACHE FILEPATH
    "Kernel BTF the BPF programs are compiled against (vmlinux.h is generated from it)")
find_program(FLIGHTREC_BPF_CLANG NAMES clang clang-14)
find_program(FLIGHTREC_BPFTOOL NAMES bpftool PATHS /usr/sbin /sbin)
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(LIBBPF QUIET IMPORTED_TARGET libbpf)
endif()

set(_ebpf_missing "")
if(NOT FLIGHTREC_BPF_CLANG)
  list(APPEND _ebpf_missing "clang")
endif()
if(NOT FLIGHTREC_BPFTOOL)
  list(APPEND _ebpf_missing "bpftool")
endif()
if(NOT LIBBPF_FOUND)
  list(APPEND _ebpf_missing "libbpf (pkg-config libbpf)")
endif()
if(NOT EXISTS ${FLIGHTREC_VMLINUX_BTF})
  list(APPEND _ebpf_missing "kernel BTF ${FLIGHTREC_VMLINUX_BTF}")
endif()
list(JOIN _ebpf_missing ", " FLIGHTREC_EBPF_MISSING)

if(FLIGHTREC_EBPF_MISSING)
  message(STATUS "flightrec: building without eBPF (missing: ${FLIGHTREC_EBPF_MISSING})")
else()
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|i.86)$")
    set(FLIGHTREC_BPF_ARCH x86)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(FLIGHTREC_BPF_ARCH arm64)
  else()
    set(FLIGHTREC_BPF_ARCH ${CMAKE_SYSTEM_PROCESSOR})
  endif()

  set(FLIGHTREC_VMLINUX_DIR ${CMAKE_BINARY_DIR}/bpf)
  file(MAKE_DIRECTORY ${FLIGHTREC_VMLINUX_DIR})
  set(_vmlinux_h ${FLIGHTREC_VMLINUX_DIR}/vmlinux.h)
  # Written through a temporary file and copied only when it changed: the BTF file's time stamp
  # moves at every boot, and an unchanged vmlinux.h must not rebuild everything after it.
  add_custom_command(
    OUTPUT ${_vmlinux_h}
    COMMAND sh -c "'${FLIGHTREC_BPFTOOL}' btf dump file '${FLIGHTREC_VMLINUX_BTF}' format c > '${_vmlinux_h}.tmp'"
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${_vmlinux_h}.tmp ${_vmlinux_h}
    DEPENDS ${FLIGHTREC_VMLINUX_BTF}
    COMMENT "Generating vmlinux.h from ${FLIGHTREC_VMLINUX_BTF}"
    VERBATIM)
  # The components' BPF compiles run in their own directories: a target orders them after this one.
  add_custom_target(flightrec_vmlinux_h DEPENDS ${_vmlinux_h})
endif()

# flightrec_libbpf(<target>): <target> calls libbpf. Links it and defines FLIGHTREC_HAVE_EBPF=1 or,
# built without the tools, FLIGHTREC_EBPF_UNAVAILABLE ("built without eBPF: missing ...").
function(flightrec_libbpf target)
  get_target_property(_done ${target} FLIGHTREC_LIBBPF)
  if(_done)
    return()
  endif()
  set_target_properties(${target} PROPERTIES FLIGHTREC_LIBBPF ON)
  if(FLIGHTREC_EBPF_MISSING)
    target_compile_definitions(${target} PRIVATE
      FLIGHTREC_EBPF_UNAVAILABLE="built without eBPF: missing ${FLIGHTREC_EBPF_MISSING} at build time")
    return()
  endif()
  target_compile_definitions(${target} PRIVATE FLIGHTREC_HAVE_EBPF=1)
  target_link_libraries(${target} PRIVATE PkgConfig::LIBBPF)
endfunction()

# flightrec_bpf_skeleton(<target> <name> [headers...]): compiles bpf/<name>.bpf.c of the calling
# component (which includes the headers of its bpf/ folder named after it) and embeds it into
# <target> as the skeleton <name>.skel.h, struct <name>_bpf. The BPF compile is a custom command on
# purpose: the C++ flags (sanitizers, warnings) must not reach it.
function(flightrec_bpf_skeleton target name)
  flightrec_libbpf(${target})
  if(FLIGHTREC_EBPF_MISSING)
    return()
  endif()
  set(_src_dir ${CMAKE_CURRENT_SOURCE_DIR}/bpf)
  set(_out_dir ${CMAKE_CURRENT_BINARY_DIR}/bpf)
  file(MAKE_DIRECTORY ${_out_dir})
  list(TRANSFORM ARGN PREPEND ${_src_dir}/ OUTPUT_VARIABLE _headers)
  set(_bpf_src ${_src_dir}/${name}.bpf.c)
  set(_bpf_obj ${_out_dir}/${name}.bpf.o)
  set(_skeleton ${_out_dir}/${name}.skel.h)
  add_custom_command(
    OUTPUT ${_bpf_obj}
    COMMAND ${FLIGHTREC_BPF_CLANG} -O2 -g -target bpf -mcpu=v3 -D__TARGET_ARCH_${FLIGHTREC_BPF_ARCH}
            -Wall -Wextra -Wno-unused-parameter -Werror
            -I${FLIGHTREC_VMLINUX_DIR} -I${_src_dir}
            -c ${_bpf_src} -o ${_bpf_obj}
    DEPENDS ${_bpf_src} ${_headers} ${FLIGHTREC_VMLINUX_DIR}/vmlinux.h flightrec_vmlinux_h
    COMMENT "Compiling BPF object ${name}.bpf.o"
    VERBATIM)
  add_custom_command(
    OUTPUT ${_skeleton}
    COMMAND sh -c "'${FLIGHTREC_BPFTOOL}' gen skeleton '${_bpf_obj}' name ${name}_bpf > '${_skeleton}.tmp'"
    COMMAND ${CMAKE_COMMAND} -E rename ${_skeleton}.tmp ${_skeleton}
    DEPENDS ${_bpf_obj}
    COMMENT "Generating BPF skeleton ${name}.skel.h"
    VERBATIM)
  # Listing the generated header as a source orders the skeleton before the library's compiles.
  target_sources(${target} PRIVATE ${_skeleton})
  # SYSTEM: the generated skeleton is not ours to hold to the C++ warning flags.
  target_include_directories(${target} SYSTEM PRIVATE ${_out_dir})
  target_include_directories(${target} PRIVATE ${_src_dir})
endfunction()
