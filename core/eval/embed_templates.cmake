# Writes a C++ file mapping each template's file name to its text.
set(body "#include \"eval/embedded_templates.h\"\n\nnamespace kw::eval {\n\nconst std::map<std::string, std::string>& embeddedTemplates() {\n    static const std::map<std::string, std::string> templates{\n")
foreach(input ${INPUTS})
  file(READ ${input} text)
  get_filename_component(name ${input} NAME)
  set(body "${body}        {\"${name}\", R\"kw_template(${text})kw_template\"},\n")
endforeach()
set(body "${body}    };\n    return templates;\n}\n\n} // namespace kw::eval\n")
file(WRITE ${OUT} "${body}")
