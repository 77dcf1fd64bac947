/* The S3 settings chain, as the AWS tools read it (internal to cli/, the only
 * reader of the environment):
 *   credentials  AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN),
 *                else the profile's in AWS_SHARED_CREDENTIALS_FILE
 *                (~/.aws/credentials), else in the config file;
 *   profile      AWS_PROFILE, else "default";
 *   region       AWS_REGION, AWS_DEFAULT_REGION, the profile's region in
 *                AWS_CONFIG_FILE (~/.aws/config), else us-east-1;
 *   endpoint     --endpoint, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the
 *                profile's endpoint_url, else AWS itself;
 *   CA bundle    AWS_CA_BUNDLE, the profile's ca_bundle, else the system's.
 * Ownership: the strings belong to the struct (sbx_s3_settings_free wipes
 * the secrets); sbx_s3_settings_config's result borrows them. */
#ifndef SBX_CLI_S3_SETTINGS_H
#define SBX_CLI_S3_SETTINGS_H

#include "base/s3.h"

struct sbx_s3_settings {
    char *access_key, *secret_key, *session_token, *region, *endpoint, *ca_file, *profile;
};

/* Reads the chain; endpoint (--endpoint) may be NULL. Never fails: missing
 * credentials show when a client is made (sbx_s3_new). */
void sbx_s3_settings_read(struct sbx_s3_settings *s, const char *endpoint);
struct sbx_s3_config sbx_s3_settings_config(const struct sbx_s3_settings *s);
void sbx_s3_settings_free(struct sbx_s3_settings *s);

/* The --endpoint given on the command line, for every s3:// input and
 * output of the command (NULL: none); borrowed until the command ends. */
extern const char *sbx_s3_endpoint_arg;

#endif
