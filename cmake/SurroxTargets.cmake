# Helpers that give every surrox target the same warnings, include roots and sanitizers.

add_library(surrox_options INTERFACE)
target_compile_options(surrox_options INTERFACE -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers)
if(SURROX_SANITIZE)
  target_compile_options(surrox_options INTERFACE -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(surrox_options INTERFACE -fsanitize=address,undefined)
endif()

# surrox_add_library(NAME SOURCES...): a static library whose headers are included by
# their path from the repository root ("core/error.hpp", "io/vtk_reader.hpp").
# Unity batches (SURROX_UNITY_BUILD) parse Kokkos, LibTorch, CLI11 and spdlog once per batch
# of files instead of once per file: most of a clean build's time was those headers and their
# templates (docs/performance.md). File-local names must therefore be unique within a folder.
function(surrox_add_library name)
  add_library(${name} STATIC ${ARGN})
  set_target_properties(${name} PROPERTIES UNITY_BUILD ${SURROX_UNITY_BUILD})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
  target_link_libraries(${name} PUBLIC surrox_options)
endfunction()
