# `cmake --install`: the twinsched command, the libraries and their headers, and an exported CMake
# package, so that another project's find_package(twinsched) gives twinsched::runtime (real
# threads), twinsched::sim (the simulator), twinsched::scenarios (scenario files), twinsched::cli
# (the whole command line, cli/cli_main.hpp) and the libraries they stand on. Headers go under include/twinsched/ and are included as in this tree
# (#include "runtime/run_threads.hpp"); each library states that include folder itself.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(twinsched_exported models watch traces runtime sim scenarios cli_run cli calibration validate accuracy viz sweep explore
    jobs)
list(TRANSFORM twinsched_exported PREPEND twinsched_)
foreach(target IN LISTS twinsched_exported)
  string(REPLACE "twinsched_" "" name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
endforeach()

install(TARGETS ${twinsched_exported} EXPORT twinschedTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS twinsched RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS twinsched_full RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR})
foreach(dir models run runtime sim traces)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/twinsched/${dir}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/scenarios/scenario_loader.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/twinsched/scenarios)
install(FILES ${PROJECT_SOURCE_DIR}/cli/cli_main.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/twinsched/cli)
# The stock machine models and scenarios (sweep files included), which the installed command
# finds beside itself by name (scenarios/stock_folder.hpp); it never reads the source tree.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/models/machines/ DESTINATION ${CMAKE_INSTALL_DATADIR}/twinsched/machines
        FILES_MATCHING PATTERN "*.toml")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/twinsched/scenarios
        FILES_MATCHING PATTERN "*.toml")

# The bash completion and the man page, made at build time from the command's own parser and
# help (cmake/cli_docs.sh), so neither can drift from it, and installed where bash-completion
# and man look. The man page needs help2man (scripts/setup.sh installs it); without it the build
# goes on without one.
set(twinsched_completion ${PROJECT_BINARY_DIR}/share/bash-completion/completions/twinsched)
add_custom_command(OUTPUT ${twinsched_completion}
                   COMMAND bash ${PROJECT_SOURCE_DIR}/cmake/cli_docs.sh completion $<TARGET_FILE:twinsched>
                           ${twinsched_completion}
                   DEPENDS twinsched ${PROJECT_SOURCE_DIR}/cmake/cli_docs.sh VERBATIM)
set(twinsched_docs ${twinsched_completion})
install(FILES ${twinsched_completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
find_program(TWINSCHED_HELP2MAN help2man)
if(TWINSCHED_HELP2MAN)
  set(twinsched_man ${PROJECT_BINARY_DIR}/share/man/man1/twinsched.1)
  add_custom_command(OUTPUT ${twinsched_man}
                     COMMAND bash ${PROJECT_SOURCE_DIR}/cmake/cli_docs.sh man $<TARGET_FILE:twinsched> ${twinsched_man}
                             ${TWINSCHED_HELP2MAN}
                     DEPENDS twinsched ${PROJECT_SOURCE_DIR}/cmake/cli_docs.sh VERBATIM)
  list(APPEND twinsched_docs ${twinsched_man})
  install(FILES ${twinsched_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(WARNING "help2man not found: the build makes no man page (scripts/setup.sh installs help2man)")
endif()
# A sanitizer build is never installed: it makes them only when asked (target twinsched_docs),
# since running the instrumented command to write them costs its build time for nothing.
if(TWINSCHED_SANITIZE STREQUAL "")
  add_custom_target(twinsched_docs ALL DEPENDS ${twinsched_docs})
else()
  add_custom_target(twinsched_docs DEPENDS ${twinsched_docs})
endif()

set(twinsched_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/twinsched)
install(EXPORT twinschedTargets NAMESPACE twinsched:: DESTINATION ${twinsched_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/twinschedConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/twinschedConfig.cmake INSTALL_DESTINATION ${twinsched_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/twinschedConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/twinschedConfig.cmake ${PROJECT_BINARY_DIR}/twinschedConfigVersion.cmake
        DESTINATION ${twinsched_cmake_dir})
