#!/bin/sh
# Writes deploy/compose/secrets/*.env with fresh random secrets that agree with each other (the passwords inside the
# database URLs, the services' MQTT passwords inside the broker's SERVICE_CREDENTIALS). An existing file is kept, so
# running it again never changes a secret that devices or a database already depend on.
#
#   sh deploy/compose/make-secrets.sh [target-folder]     (default: deploy/compose/secrets)
set -eu

dir=${1:-$(dirname "$0")/secrets}
mkdir -p "$dir"
umask 077

# 24 random bytes, base64url without padding: safe inside URLs and in name:secret lists.
secret() { head -c 24 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n'; }

postgres_password=$(secret)
app_password=$(secret)
signing_key=$(secret)
orchestrator_password=$(secret)
voice_worker_password=$(secret)
# The admin API's Ed25519 audit signing key: 32 random bytes, base64 (what AUDIT_SIGNING_KEY takes).
audit_signing_key=$(head -c 32 /dev/urandom | base64 | tr -d '\n')
# 32 random bytes for AES-256 (base64url, 43 characters): seals the eFuse keys admins import.
efuse_wrapping_key=$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')
# 32 random bytes, base64: the HMAC key of /mcp's requestState (what MCP_STATE_KEY takes).
mcp_state_key=$(head -c 32 /dev/urandom | base64 | tr -d '\n')

# The passwords below are only taken from the newly generated set when the file that holds them is new too: if
# postgres.env exists, the URLs must keep its passwords.
if [ -f "$dir/postgres.env" ]; then
  postgres_password=$(sed -n 's/^POSTGRES_PASSWORD=//p' "$dir/postgres.env")
  app_password=$(sed -n 's/^FLEET_APP_PASSWORD=//p' "$dir/postgres.env")
fi
if [ -f "$dir/broker.env" ]; then
  credentials=$(sed -n 's/^SERVICE_CREDENTIALS=//p' "$dir/broker.env")
  orchestrator_password=$(printf '%s\n' "$credentials" | tr ',' '\n' | sed -n 's/^orchestrator://p')
  voice_worker_password=$(printf '%s\n' "$credentials" | tr ',' '\n' | sed -n 's/^voice-worker://p')
fi

write() {
  if [ -f "$dir/$1" ]; then
    echo "kept    $dir/$1"
  else
    cat >"$dir/$1"
    echo "written $dir/$1"
  fi
}

write postgres.env <<EOF
POSTGRES_PASSWORD=$postgres_password
FLEET_APP_PASSWORD=$app_password
EOF
write app-db.env <<EOF
DATABASE_URL=postgresql://fleet_app:$app_password@postgres:5432/fleet
EOF
write migrate.env <<EOF
MIGRATION_DATABASE_URL=postgresql://postgres:$postgres_password@postgres:5432/fleet
EOF
write broker.env <<EOF
DEVICE_SIGNING_KEYS=$signing_key
SERVICE_CREDENTIALS=orchestrator:$orchestrator_password,voice-worker:$voice_worker_password
EOF
# The broker and the admin API read the same file: the API seals imported eFuse keys, the broker opens them.
write efuse.env <<EOF
EFUSE_WRAPPING_KEYS=$efuse_wrapping_key
EOF
write orchestrator.env <<EOF
MQTT_PASSWORD=$orchestrator_password
EOF
write voice-worker.env <<EOF
MQTT_PASSWORD=$voice_worker_password
EOF
write admin-api.env <<EOF
AUDIT_SIGNING_KEY=$audit_signing_key
MCP_STATE_KEY=$mcp_state_key
EOF
