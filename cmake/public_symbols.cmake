# public_symbols.cmake: the linker version script of libcuzk.so, made from
# the public headers, so the shared library exports the functions declared
# in include/cuzk/*.h and nothing else (the library's internal functions
# share the cz_ prefix, so a wildcard would export them too).
function(cuzk_public_version_script out)
  file(GLOB headers ${CMAKE_SOURCE_DIR}/include/cuzk/*.h)
  set(names "")
  foreach(h ${headers})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${h})
    file(READ ${h} text)
    # a declaration: a return type, then cz_name( ; inline functions are
    # defined in the header and need no export
    string(REGEX MATCHALL "[a-z_ *]+[ *](cz_[a-z0-9_]+)\\(" decls "${text}")
    foreach(d ${decls})
      string(REGEX REPLACE ".*[ *](cz_[a-z0-9_]+)\\($" "\\1" name "${d}")
      if(NOT d MATCHES "static inline")
        list(APPEND names ${name})
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES names)
  list(SORT names)
  set(body "CUZK_${PROJECT_VERSION_MAJOR} {\n  global:\n")
  foreach(n ${names})
    string(APPEND body "    ${n};\n")
  endforeach()
  string(APPEND body "  local:\n    *;\n};\n")
  file(WRITE ${out}.tmp "${body}")
  configure_file(${out}.tmp ${out} COPYONLY)
endfunction()
