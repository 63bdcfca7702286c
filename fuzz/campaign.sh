#!/usr/bin/env bash
# A libFuzzer campaign over every target (or the targets named), each run until it has spent
# CPU_SECONDS of CPU time (user + system), not wall time: on a shared machine the campaign runs
# under `nice` and wall time says little. Runs resume from the inputs kept in corpus/<target>,
# so a campaign can be spread over several sittings; the CPU already spent is kept in
# campaign/<target>.cpu. Seeds are the shared corpus (read-only, never committed).
#
#   cargo fuzz build --features libfuzzer -s none -O     # once, from fuzz/
#   CPU_SECONDS=600 nice -n 19 ./campaign.sh [TARGET...]
#
# A failing input lands in artifacts/<target>/ and the campaign goes on with the next target;
# the summary at the end (and campaign/summary.tsv) lists runs, CPU seconds and failures.
set -u
cd "$(dirname "$0")"
CPU_SECONDS=${CPU_SECONDS:-600}
SHARED=${SHADERSCOPE_CORPUS:-../../shared/corpus}
BIN=../target/x86_64-unknown-linux-gnu/release
mkdir -p campaign

seeds() {
    case "$1" in
    shbin | dvoj | cgfx | pica | encode_decode_pica) echo "$SHARED/shbin" ;;
    # picasso sources and SHBINs: the text target reads the sources, the generator any bytes
    pica_print_assemble | pica_asm_text) echo "$SHARED/shbin" ;;
    dxbc | sm4 | sm4_specialised | d3d9 | encode_decode_sm4 | sm4_print_assemble | d3d9_asm) echo "$SHARED/dxbc" ;;
    latte | gfd | sharcfb | sharc | encode_decode_latte | latte_print_assemble) echo "$SHARED/gx2" ;;
    mbs | mali_gp | mali_pp | encode_decode_mali_gp | encode_decode_mali_pp) echo "$SHARED/mbs" ;;
    mali_pp_print_assemble | mali_gp_print_assemble) echo "$SHARED/mbs" ;;
    # the listings beside the binaries are the assemblers' seeds
    asm_text | asm_nesting) echo "$SHARED/dxbc $SHARED/shbin/reference $SHARED/gx2/reference $SHARED/mbs/reference" ;;
    *) echo "$SHARED" ;;
    esac
}

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(sed -n 's/^name = "\(.*\)"/\1/p' Cargo.toml | grep -v '^shaderscope-fuzz$')
fi

for t in "${targets[@]}"; do
    spent=$(cat "campaign/$t.cpu" 2>/dev/null || echo 0)
    mkdir -p "corpus/$t" "artifacts/$t"
    while [ "$spent" -lt "$CPU_SECONDS" ]; do
        # at least a minute a run: each run first spends seconds loading its inputs
        left=$((CPU_SECONDS - spent > 60 ? CPU_SECONDS - spent : 60))
        # shellcheck disable=SC2046
        /usr/bin/time -f '%U %S' -o "campaign/$t.time" \
            "$BIN/$t" "corpus/$t" $(seeds "$t") -max_total_time="$left" -max_len=131072 \
            -timeout=10 -malloc_limit_mb=1024 -rss_limit_mb=2048 -print_final_stats=1 \
            -artifact_prefix="artifacts/$t/" >"campaign/$t.log" 2>&1
        rc=$?
        cpu=$(awk 'END { printf "%d", $1 + $2 }' "campaign/$t.time")
        spent=$((spent + cpu))
        echo "$spent" >"campaign/$t.cpu"
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "campaign/$t.log" | tail -1)
        printf '%s\t%s\t%s\t%s\n' "$t" "${runs:-?}" "$cpu" "$rc" >>campaign/summary.tsv
        if [ "$rc" -ne 0 ]; then
            echo "$t: exit $rc after $cpu CPU-s, see campaign/$t.log and artifacts/$t/"
            break
        fi
        [ "$cpu" -eq 0 ] && break
    done
    echo "$t: $spent CPU-s"
done
