#include "importers/format.h"

const struct sbx_format *const sbx_formats[] = {
    &sbx_format_recorder, /* first: a recorder log is the common case and its lines say so at once */
    &sbx_format_runtime_commands,
    &sbx_format_runtime_events,
    &sbx_format_runtime_audit,
    &sbx_format_runtime_metrics,
    &sbx_format_runtime_webhooks,
    &sbx_format_sandboxio,
    &sbx_format_otlp,
    &sbx_format_squid, /* after the JSON formats: plain text lines */
    &sbx_format_manifest,
    &sbx_format_diff,
    NULL,
};

const struct sbx_format *sbx_detect_format(const char *data, size_t size)
{
    for (size_t i = 0; sbx_formats[i]; i++)
        if (sbx_formats[i]->detect(data, size))
            return sbx_formats[i];
    return NULL;
}
