# Helpers that give every surrox target the same warnings, include roots and sanitizers.

add_library(surrox_options INTERFACE)
target_compile_options(surrox_options INTERFACE -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers)
if(SURROX_SANITIZE)
  target_compile_options(surrox_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(surrox_options INTERFACE -fsanitize=address,undefined)
endif()

# surrox_add_library(NAME SOURCES...): a static library whose headers are included by
# their path from the repository root ("core/error.hpp", "io/vtk_reader.hpp").
function(surrox_add_library name)
  add_library(${name} STATIC ${ARGN})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
  target_link_libraries(${name} PUBLIC surrox_options)
endfunction()
