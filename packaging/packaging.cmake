# What an installation holds besides the executables, and the Debian package
# (cpack -G DEB) made of it.
#
# Packaging never builds: `install` and `cpack` take what the build made
# (tests/package/tst_package.sh packages the tree the test suite built).
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(KW_APP_ID io.github.kernelwright.Kernelwright)

# Bundled problems, harness runtimes and the GPU probe, where
# paths::resourcesDir() looks: PREFIX/share/kernelwright; the shipped knowledge
# base (kb/ at the top of the source tree) beside them, in PREFIX/share/kernelwright/kb.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/resources/ DESTINATION ${CMAKE_INSTALL_DATADIR}/kernelwright
        PATTERN "__pycache__" EXCLUDE)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/kb/ DESTINATION ${CMAKE_INSTALL_DATADIR}/kernelwright/kb)

# kernelwright-cli(1) and bash completion, from the built CLI's help texts.
set(KW_MAN_PAGE ${CMAKE_BINARY_DIR}/packaging/kernelwright-cli.1.gz)
add_custom_command(
  OUTPUT ${KW_MAN_PAGE}
  COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:kernelwright-cli> -DVERSION=${PROJECT_VERSION} -DOUT=${KW_MAN_PAGE}
          -P ${CMAKE_SOURCE_DIR}/packaging/cli_man_page.cmake
  DEPENDS kernelwright-cli ${CMAKE_SOURCE_DIR}/packaging/cli_man_page.cmake
  COMMENT "Writing the kernelwright-cli man page from its --help texts"
  VERBATIM)
add_custom_target(kernelwright-cli-man ALL DEPENDS ${KW_MAN_PAGE})
install(FILES ${KW_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/kernelwright-cli.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME kernelwright-cli)

if(KW_BUILD_GUI)
  install(FILES ${CMAKE_SOURCE_DIR}/packaging/${KW_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${CMAKE_SOURCE_DIR}/packaging/${KW_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES ${CMAKE_SOURCE_DIR}/packaging/icons/kernelwright.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
          RENAME ${KW_APP_ID}.svg)
  # PNGs rendered once from the SVG (rsvg-convert -w N -h N) and kept in the repository.
  foreach(size 48 64 128 256)
    install(FILES ${CMAKE_SOURCE_DIR}/packaging/icons/kernelwright-${size}.png
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps RENAME ${KW_APP_ID}.png)
  endforeach()
endif()

# Debian names the folder after the package.
# (a native package's changelog.gz, compressed as Debian wants: -9, no name or time stamp).
set(KW_CHANGELOG ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(
  OUTPUT ${KW_CHANGELOG}
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/packaging/changelog ${CMAKE_BINARY_DIR}/packaging/changelog
  COMMAND gzip -9nf ${CMAKE_BINARY_DIR}/packaging/changelog
  DEPENDS ${CMAKE_SOURCE_DIR}/packaging/changelog
  VERBATIM)
add_custom_target(kernelwright-changelog ALL DEPENDS ${KW_CHANGELOG})
install(FILES ${CMAKE_SOURCE_DIR}/packaging/copyright ${KW_CHANGELOG} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/kernelwright)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kernelwright)
set(CPACK_PACKAGE_VENDOR "Kernelwright")
set(CPACK_PACKAGE_CONTACT "Kernelwright maintainers <kernelwright@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "workbench and CLI for agentic search of fast compute kernels")
set(CPACK_PACKAGE_DESCRIPTION "Kernelwright grows a tree of candidate kernels for an operator: a language
model or an offline tuner proposes them, a sandboxed harness checks each one
against a reference and times it against the baselines, and a tree search
decides what to try next. kernelwright is the Qt workbench that shows and
steers searches live; kernelwright-cli runs them headless and exports
trajectories for model training and the best kernel with its results.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/kernelwright/kernelwright")
# Libraries from dpkg-shlibdeps; g++ builds every CPU candidate and the harness.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "g++")
# The sandbox (without it jobs run with limits only), torch problems, PDF import
# into the KB, remote executors, cachegrind profiles.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bubblewrap, python3, poppler-utils, openssh-client")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "valgrind, slurm-client, libopenblas-dev")
include(CPack)
