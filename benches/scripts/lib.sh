# Shared set-up of the scripts that time the release CLI on big generated
# inputs (artifact_1gb.sh, batch_1gb.sh, hostile.sh). Sourcing it moves to
# the repository root; `release_cli DATA_DIR [CARGO_BUILD_ARGS...]` makes
# the data folder, builds the release CLI (and whatever else the arguments
# name) and sets `data` and `flexmd`.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

release_cli() {
  data=$1
  shift
  mkdir -p "$data"
  cargo build -q --release -p flexmd-cli "$@"
  flexmd=$PWD/target/release/flexmd
}
