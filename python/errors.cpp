// Sling's typed errors (engine/core/errors.h) as Python exceptions.  The message is the one line
// the command line prints after "sling: " (cli/main.cpp), so a script and a terminal read the same
// words.  Each class derives from sling.SlingError and from the Python class a caller would catch
// for that kind of mistake:
//   SlingError(Exception)
//     RulesError(SlingError, ValueError)          a rules or map file (or dict) that is malformed
//     IllegalActionError(SlingError, ValueError)  an action that is not legal in the state
//     ParseError(SlingError, ValueError)          text that names no action
//     FileFormatError(SlingError, ValueError)     a save, record, state or solution that cannot be
//     read OptionError(SlingError, ValueError)         a bad agent spec or option value
// Other C++ exceptions keep pybind11's translation (std::bad_alloc is MemoryError, any other
// std::exception a RuntimeError).

#include <Python.h>

#include <exception>
#include <string>

#include "engine/core/errors.h"
#include "python/core.h"

namespace sling::python {
namespace {

// New exception classes live as long as the interpreter: these references are never released.
PyObject* g_sling_error = nullptr;
PyObject* g_rules_error = nullptr;
PyObject* g_illegal_action_error = nullptr;
PyObject* g_parse_error = nullptr;
PyObject* g_file_format_error = nullptr;
PyObject* g_option_error = nullptr;

PyObject* new_exception(py::module_& m, const char* name, PyObject* bases, const char* doc) {
  const std::string qualified = std::string("sling.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (type == nullptr) throw py::error_already_set();
  Py_INCREF(type);  // one reference for the module attribute, one kept here
  m.attr(name) = py::reinterpret_steal<py::object>(type);
  return type;
}

PyObject* with_value_error(py::module_& m, const char* name, const char* doc) {
  py::tuple bases = py::make_tuple(py::handle(g_sling_error), py::handle(PyExc_ValueError));
  return new_exception(m, name, bases.ptr(), doc);
}

}  // namespace

void bind_errors(py::module_& m) {
  g_sling_error = new_exception(m, "SlingError", PyExc_Exception,
                                "Base class of every error Sling reports (one line of text).");
  g_rules_error = with_value_error(m, "RulesError",
                                   "A rules or map file (or dict) that is malformed, has unknown "
                                   "keys or out-of-range values.");
  g_illegal_action_error =
      with_value_error(m, "IllegalActionError", "An action that is not legal in the given state.");
  g_parse_error =
      with_value_error(m, "ParseError", "Text that does not name an action or chance outcome.");
  g_file_format_error = with_value_error(
      m, "FileFormatError", "A save, record, state or solution file that cannot be read back.");
  g_option_error = with_value_error(m, "OptionError", "A bad agent spec or option value.");

  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const IllegalActionError& e) {
      PyErr_SetString(g_illegal_action_error, e.what());
    } catch (const ParseError& e) {
      PyErr_SetString(g_parse_error, e.what());
    } catch (const RulesError& e) {
      PyErr_SetString(g_rules_error, e.what());
    } catch (const FileFormatError& e) {
      PyErr_SetString(g_file_format_error, e.what());
    } catch (const OptionError& e) {
      PyErr_SetString(g_option_error, e.what());
    } catch (const SlingError& e) {
      PyErr_SetString(g_sling_error, e.what());
    }
  });
}

}  // namespace sling::python
