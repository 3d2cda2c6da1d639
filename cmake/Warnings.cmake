# Warnings are errors for our own targets; call flightrec_warnings(target) on each one.
function(flightrec_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Werror
    -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Wunused
    -Woverloaded-virtual -Wconversion -Wsign-conversion -Wnull-dereference
    -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough
    # g++ 12 warns on designated initializers that rely on default member initializers.
    -Wno-missing-field-initializers)
endfunction()
