from banker.advisor.bench import run_bench


def test_bench_reports_solve_times():
    figures = run_bench()
    assert set(figures) == {"solve_short_ms", "solve_long_ms", "tables_ms"}
    assert all(value > 0 for value in figures.values())
