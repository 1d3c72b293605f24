# Builds of the twinsched command in which a few product files differ from the stock command's,
# compiling again only the files that read them; every other object is shared with twinsched
# (twinsched_cli and the libraries). The recompiled objects come first at the link, so the stock
# ones in the static libraries are never pulled in: for that, each file compiled again is an object
# of its own in its library too, outside the unity build's batches (twinsched_own_objects).
set(twinsched_product_folders models run runtime sim twin scenarios traces viz sweep explore jobs cli)

# twinsched_own_objects(FILE...): each product FILE compiles to an object of its own in its library
# (every library is defined in its top folder's CMakeLists.txt).
function(twinsched_own_objects)
  foreach(file IN LISTS ARGN)
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${file}")
    string(REGEX REPLACE "/.*" "" top "${rel}")
    set_source_files_properties("${file}" DIRECTORY "${PROJECT_SOURCE_DIR}/${top}"
                                PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endforeach()
endfunction()

# twinsched_readers(OUT NAME...): the product .cpp files that include a header called NAME (by its
# file name, in any folder) through any chain of includes.
function(twinsched_readers out)
  set(files "")
  foreach(dir IN LISTS twinsched_product_folders)
    file(GLOB_RECURSE found "${PROJECT_SOURCE_DIR}/${dir}/*.hpp" "${PROJECT_SOURCE_DIR}/${dir}/*.cpp")
    list(APPEND files ${found})
  endforeach()
  set(readers ${ARGN})
  set(sources "")
  set(grown TRUE)
  while(grown)
    set(grown FALSE)
    string(REPLACE "." "\\." pattern "${readers}")
    string(REPLACE ";" "|" pattern "${pattern}")
    foreach(file IN LISTS files)
      file(STRINGS "${file}" hit REGEX "#include \"([^\"]*/)?(${pattern})\"")
      if(NOT hit)
        continue()
      endif()
      list(REMOVE_ITEM files "${file}")
      get_filename_component(name "${file}" NAME)
      if(file MATCHES "\\.hpp$")
        list(APPEND readers "${name}")
        set(grown TRUE)
      else()
        list(APPEND sources "${file}")
      endif()
    endforeach()
  endwhile()
  set(${out} ${sources} PARENT_SCOPE)
endfunction()

# twinsched_command_with_registry(TARGET REGISTRY_HEADER): the twinsched command, built with a
# policy registry of its own. REGISTRY_HEADER (a path the compiler finds from the tree's root, or an
# absolute one) includes the binary's policies and defines
#   using registered_policies = stock_policies::with<my_policy, ...>;
# (models/policy/policies.hpp). The product files that read the registry's type list (the run
# pipeline's backends, the catalog models/registry.cpp) are compiled again with
# TWINSCHED_POLICY_REGISTRY: every name, flag, scenario key, check and `list` line of the new
# policies reaches the whole command.
function(twinsched_command_with_registry target registry)
  twinsched_readers(registry_sources policies.hpp)
  foreach(file IN LISTS registry_sources)
    if(file MATCHES "/cli/")
      message(FATAL_ERROR "${file} reads the policy registry, and twinsched_cli's objects are shared "
                          "by every registry: move that code out of cli/")
    endif()
  endforeach()
  twinsched_own_objects(${registry_sources})
  get_target_property(cli_dir twinsched SOURCE_DIR)
  add_executable(${target} "${cli_dir}/full_main.cpp" ${registry_sources})
  set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)
  target_link_libraries(${target} PRIVATE twinsched_cli)
  target_compile_definitions(${target} PRIVATE TWINSCHED_POLICY_REGISTRY="${registry}")
endfunction()

# twinsched_command_with_overlay(TARGET OVERLAY): the twinsched command built with OVERLAY/models/,
# a copy of models/ changed in places (tests/mutants applies a planted bug to one), in place of
# the tree's models/. The product files that read a changed file are compiled again, with OVERLAY
# first on the include path (every file outside models/ includes "models/..." from the root; files
# inside models/ include each other by relative paths, so those that are read again are compiled
# from the copy). Not part of `all`.
function(twinsched_command_with_overlay target overlay)
  file(GLOB_RECURSE copies RELATIVE "${overlay}" "${overlay}/models/*.hpp" "${overlay}/models/*.cpp")
  set(changed_headers "")
  set(changed_sources "")
  foreach(rel IN LISTS copies)
    set(original "${PROJECT_SOURCE_DIR}/${rel}")
    file(SHA256 "${overlay}/${rel}" new)
    set(old "")
    if(EXISTS "${original}")
      file(SHA256 "${original}" old)
    endif()
    if(NOT new STREQUAL old)
      get_filename_component(name "${rel}" NAME)
      if(rel MATCHES "\\.hpp$")
        list(APPEND changed_headers "${name}")
      else()
        list(APPEND changed_sources "${original}")
      endif()
    endif()
  endforeach()
  set(readers ${changed_sources})
  if(changed_headers)
    twinsched_readers(found ${changed_headers})
    list(APPEND readers ${found})
  endif()
  list(REMOVE_DUPLICATES readers)
  set(sources "")
  foreach(file IN LISTS readers)
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${file}")
    if(rel MATCHES "^models/")
      list(APPEND sources "${overlay}/${rel}")
    else()
      list(APPEND sources "${file}")
    endif()
  endforeach()
  twinsched_own_objects(${readers})
  get_target_property(cli_dir twinsched SOURCE_DIR)
  add_executable(${target} EXCLUDE_FROM_ALL "${cli_dir}/full_main.cpp" ${sources})
  set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)
  target_include_directories(${target} BEFORE PRIVATE "${overlay}")
  target_link_libraries(${target} PRIVATE twinsched_cli)
  list(LENGTH sources n)
  message(STATUS "${target}: ${n} files read what ${overlay} changes (${changed_headers})")
endfunction()
