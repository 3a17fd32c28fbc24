# Fails when a layer reaches up: tools -> tuner -> src (the library) -> kernels, db; python (the
# Python extension) binds the library's public C API. Run as
#   cmake -DSOURCE_DIR=<repo> -P check_layers.cmake
# A quoted #include in a layer must name a header of that layer or of a layer below it, and a
# layer's CMakeLists.txt must not name a folder of a layer above it (a source file compiled into
# the wrong target, or an include directory that opens the way up).
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "pass -DSOURCE_DIR=<repository root>")
endif()

# Each layer and what it may reach besides itself. kernels and db are independent leaves.
set(layers kernels db src tuner tools python)
set(below_kernels "")
set(below_db "")
set(below_src kernels db)
set(below_tuner src kernels db)
set(below_tools tuner src kernels db)
set(below_python src)

# Headers of every layer, by file name and by path relative to the layer's folder. kernels/types/ is
# the header-only vocabulary of element and compute types that every layer may spell (the database's
# keys among them), so its headers belong to no layer.
file(GLOB vocabulary RELATIVE ${SOURCE_DIR}/kernels/types ${SOURCE_DIR}/kernels/types/*.hpp)
foreach(layer IN LISTS layers)
  file(GLOB_RECURSE headers RELATIVE ${SOURCE_DIR}/${layer} ${SOURCE_DIR}/${layer}/*.hpp ${SOURCE_DIR}/${layer}/*.cuh
       ${SOURCE_DIR}/${layer}/*.h)
  set(names_${layer} "")
  foreach(h IN LISTS headers)
    get_filename_component(name ${h} NAME)
    if(NOT name IN_LIST vocabulary)
      list(APPEND names_${layer} ${name} ${h})
    endif()
  endforeach()
endforeach()
# The public headers belong to the library's layer.
list(APPEND names_src autogemm/autogemm.h autogemm/autogemm.hpp)

set(violations "")
foreach(layer IN LISTS layers)
  set(allowed ${layer} ${below_${layer}})
  file(GLOB_RECURSE sources ${SOURCE_DIR}/${layer}/*.cpp ${SOURCE_DIR}/${layer}/*.hpp ${SOURCE_DIR}/${layer}/*.cu
       ${SOURCE_DIR}/${layer}/*.cuh ${SOURCE_DIR}/${layer}/*.h)
  foreach(file IN LISTS sources)
    file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]+\"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" header "${line}")
      # A header found beside the including file or in an allowed layer is fine.
      get_filename_component(dir ${file} DIRECTORY)
      if(EXISTS ${dir}/${header})
        continue()
      endif()
      set(found_allowed FALSE)
      foreach(ok IN LISTS allowed)
        if(header IN_LIST names_${ok})
          set(found_allowed TRUE)
        endif()
      endforeach()
      if(found_allowed)
        continue()
      endif()
      foreach(other IN LISTS layers)
        if(NOT other IN_LIST allowed AND header IN_LIST names_${other})
          file(RELATIVE_PATH rel ${SOURCE_DIR} ${file})
          list(APPEND violations "${rel} (${layer}) includes ${header} of ${other}")
        endif()
      endforeach()
    endforeach()
  endforeach()

  # CMakeLists.txt of the layer: no folder of a layer it may not reach.
  file(GLOB_RECURSE lists ${SOURCE_DIR}/${layer}/CMakeLists.txt)
  foreach(list_file IN LISTS lists)
    file(READ ${list_file} text)
    foreach(other IN LISTS layers)
      if(NOT other IN_LIST allowed AND text MATCHES "PROJECT_SOURCE_DIR}/${other}[/ )\n]")
        file(RELATIVE_PATH rel ${SOURCE_DIR} ${list_file})
        list(APPEND violations "${rel} (${layer}) names the folder of ${other}")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "layers must depend one way (tools -> tuner -> src -> kernels, db):\n  ${text}")
endif()
message(STATUS "layers depend one way: tools -> tuner -> src -> kernels, db; python -> src")
