#!/usr/bin/env bash
# apt_install_missing LABEL PACKAGE...: installs the Debian packages not yet installed.
# Idempotent: packages already present are left alone. Uses sudo when not root.
# Sourced by install-deps.sh and install-compare-deps.sh.
apt_install_missing() {
  local label="$1"
  shift
  local missing=() p
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "$label: all $# packages present"
    return 0
  fi
  local sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  echo "$label: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
