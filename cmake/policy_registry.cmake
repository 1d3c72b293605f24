# twinsched_command_with_registry(TARGET REGISTRY_HEADER): the twinsched command, built with a
# policy registry of its own. REGISTRY_HEADER (a path the compiler finds from the tree's root, or an
# absolute one) includes the binary's policies and defines
#   using registered_policies = stock_policies::with<my_policy, ...>;
# (models/policy/policies.hpp). The command's objects are shared with twinsched (twinsched_cli);
# only the product files that read the registry's type list, through any chain of includes (the
# run pipeline's backends, the catalog models/registry.cpp), are compiled again with
# TWINSCHED_POLICY_REGISTRY. Their objects come first at the link, so the stock ones in the static
# libraries are never pulled in: every name, flag, scenario key, check and `list` line of the new
# policies reaches the whole command.
set(twinsched_product_folders models run runtime sim twin scenarios traces viz sweep explore jobs cli)

function(twinsched_command_with_registry target registry)
  set(files "")
  foreach(dir IN LISTS twinsched_product_folders)
    file(GLOB_RECURSE found "${PROJECT_SOURCE_DIR}/${dir}/*.hpp" "${PROJECT_SOURCE_DIR}/${dir}/*.cpp")
    list(APPEND files ${found})
  endforeach()
  # The headers that reach policies.hpp, by name, until no more are found.
  set(readers "policies.hpp")
  set(registry_sources "")
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
      elseif(file MATCHES "/cli/")
        message(FATAL_ERROR "${file} reads the policy registry, and twinsched_cli's objects are shared "
                            "by every registry: move that code out of cli/")
      else()
        list(APPEND registry_sources "${file}")
      endif()
    endforeach()
  endwhile()
  get_target_property(cli_dir twinsched SOURCE_DIR)
  add_executable(${target} "${cli_dir}/main.cpp" ${registry_sources})
  target_link_libraries(${target} PRIVATE twinsched_cli)
  target_compile_definitions(${target} PRIVATE TWINSCHED_POLICY_REGISTRY="${registry}")
endfunction()
