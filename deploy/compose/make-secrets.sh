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
# The orchestrator's Ed25519 seal key (SEAL_SIGNING_KEY, 32 random bytes, base64); the admin API lists its public
# half as a C2SP verifier key string (SEAL_PUBLIC_KEYS, name+keyid+base64(0x01 || key)), derived below with openssl.
seal_signing_key=$(head -c 32 /dev/urandom | base64 | tr -d '\n')
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
if [ -f "$dir/orchestrator.env" ]; then
  seal_signing_key=$(sed -n 's/^SEAL_SIGNING_KEY=//p' "$dir/orchestrator.env")
fi
if [ -f "$dir/broker.env" ]; then
  credentials=$(sed -n 's/^SERVICE_CREDENTIALS=//p' "$dir/broker.env")
  orchestrator_password=$(printf '%s\n' "$credentials" | tr ',' '\n' | sed -n 's/^orchestrator://p')
  voice_worker_password=$(printf '%s\n' "$credentials" | tr ',' '\n' | sed -n 's/^voice-worker://p')
fi

# The verifier key string of a seal key (signed-note: key id = SHA-256(name || 0x0A || 0x01 || public key)[:4]).
seal_verifier_key() {
  work=$(mktemp -d)
  # RFC 8410: the fixed PKCS#8 prefix of a raw Ed25519 private key, then the key.
  { printf '%s' MC4CAQAwBQYDK2VwBCIEIA== | base64 -d; printf '%s' "$1" | base64 -d; } >"$work/key.der"
  { printf '\001'; openssl pkey -inform DER -in "$work/key.der" -pubout -outform DER | tail -c 32; } >"$work/pub"
  id=$({ printf 'voice-fleet-orchestrator\n'; cat "$work/pub"; } | openssl dgst -sha256 -binary | head -c 4 | od -An -tx1 | tr -d ' \n')
  printf 'voice-fleet-orchestrator+%s+%s' "$id" "$(base64 <"$work/pub" | tr -d '\n')"
  rm -rf "$work"
}
seal_public_keys=$(seal_verifier_key "$seal_signing_key")

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
SEAL_SIGNING_KEY=$seal_signing_key
EOF
write voice-worker.env <<EOF
MQTT_PASSWORD=$voice_worker_password
EOF
write admin-api.env <<EOF
AUDIT_SIGNING_KEY=$audit_signing_key
MCP_STATE_KEY=$mcp_state_key
SEAL_PUBLIC_KEYS=$seal_public_keys
EOF
