#include "importers/json/jsonerr.h"

const char *sbx_json_problem(const json_error_t *e)
{
    switch (json_error_code(e)) {
    case json_error_invalid_utf8: return "invalid UTF-8";
    case json_error_premature_end_of_input: return "the JSON text ends too early";
    case json_error_end_of_input_expected: return "text after the JSON value";
    case json_error_duplicate_key: return "a duplicate key";
    case json_error_null_character: return "a NUL character";
    case json_error_numeric_overflow: return "a number out of range";
    case json_error_invalid_syntax: return "invalid syntax";
    default: return "invalid JSON";
    }
}
