"""The mutation suite's result is served only on the key it was computed on (never stale)."""
import json

from dpregret.pipeline.mutation import cache


def test_a_cached_result_is_served_only_on_its_own_key(tmp_path, monkeypatch):
    settings = {"base": {"x": 1}, "tolerances": {}, "seed": 1, "alpha": 0.05}
    path = tmp_path / "mutation-cache.json"
    calls = []

    def compute():
        calls.append(1)
        return {"caught": 3, "total": 4}

    first = cache.result(settings, compute, path)
    assert first["source"] == "computed in this run" and len(calls) == 1
    cache.refresh(settings, compute, path)
    served = cache.result(settings, compute, path)
    assert served["source"].startswith("served from") and served["caught"] == 3 and len(calls) == 2
    assert served["key"] == json.loads(path.read_text())["key"] == cache.key(settings)
    # another setting, or a changed source file, is another key: recomputed, not served
    assert cache.result({**settings, "seed": 2}, compute, path)["source"] == "computed in this run"
    src = tmp_path / "pkg"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "m.py").write_text("x = 1\n")
    monkeypatch.setattr(cache, "PACKAGE", src)
    k1 = cache.key(settings)
    (src / "sub" / "m.py").write_text("x = 2\n")
    assert cache.key(settings) != k1
