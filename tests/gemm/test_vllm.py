"""vLLM's tuned configs are read the way vLLM's code reads them (nearest key, both GEMMs, the file's stages)."""

from __future__ import annotations

import pytest

from toyhw.gemm import vllm
from toyhw.gemm.time_table import shared_table


def test_nearest_key_as_vllm_picks_it():
    keys = list(vllm.tuned_configs())
    assert 8192 not in keys and vllm.chosen_key(8192, keys) == 9216
    assert vllm.chosen_key(5120, keys) == 5120 and vllm.chosen_key(3, keys) == 2  # a tie goes to the smaller key
    assert vllm.chosen_key(100, keys) == 96
    with pytest.raises(ValueError, match="M = 0"):
        vllm.chosen_key(0, keys)


def test_the_files_stage_counts_and_no_split_k():
    configs = vllm.tuned_configs()
    assert configs[5120].num_stages == 4 and configs[9216].num_stages == 3
    assert configs[1].block_k == 256 and configs[1].num_stages == 5
    assert all(c.split_k == 1 for c in configs.values())


def test_the_config_is_ranked_on_both_gemms_of_the_layer():
    gemms = vllm.layer_gemms(256)
    assert (gemms["gate/up"].N, gemms["gate/up"].K) == (2 * vllm.FILE_N, vllm.HIDDEN)
    assert (gemms["down"].N, gemms["down"].K) == (vllm.HIDDEN, vllm.FILE_N)
    ranks = vllm.vllm_ranks(shared_table("H100"), ms=(256, 8192))
    assert [(r.M, r.key, r.gemm) for r in ranks] == [
        (256, 256, "gate/up"),
        (256, 256, "down"),
        (8192, 9216, "gate/up"),
        (8192, 9216, "down"),
    ]
    assert all(r.rank >= 1 and r.time_us >= r.oracle_us for r in ranks)
    assert len(vllm.vllm_notes(ranks, shared_table("H100"))) == 4
