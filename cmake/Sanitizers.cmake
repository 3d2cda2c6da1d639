# FLIGHTREC_SANITIZE applies to every target in the build (libraries, tests, the binary alike),
# so a sanitizer build is a separate build directory, never mixed with a normal one.
if(FLIGHTREC_SANITIZE)
  list(JOIN FLIGHTREC_SANITIZE "," _fr_san)
  add_compile_options(-fsanitize=${_fr_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_fr_san})
  add_compile_definitions(FLIGHTREC_SANITIZED=1)
endif()
