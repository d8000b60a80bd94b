"""The end-of-game chart: every player's net worth after every action, drawn as SVG on the server."""

from __future__ import annotations

from html import escape

COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
WIDTH, HEIGHT = 340, 220
LEFT, RIGHT, TOP, BOTTOM = 46, 8, 10, 22


def nice_step(span: float) -> int:
    """A round grid step giving 3 to 6 lines over ``span``."""
    step = 1
    while span / step > 6:
        for factor in (2, 2.5, 2):
            step = int(step * factor)
            if span / step <= 6:
                break
    return max(step, 1)


def worth_chart(series: list[dict[str, int]], players: list[str], money: object = None,
                label: str = "") -> str:
    """An SVG line chart: x = actions (seq), y = net worth, one line per player, with a legend."""
    fmt = money if callable(money) else str
    if not series or not players:
        return ""
    xs = [point["seq"] for point in series]
    values = [point.get(p, 0) for point in series for p in players]
    low, high = 0, max(max(values), 1)
    step = nice_step(high - low)
    high = ((high + step - 1) // step) * step
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def sx(x: float) -> float:
        return LEFT + (x - x0) / (x1 - x0) * plot_w

    def sy(y: float) -> float:
        return TOP + plot_h - (y - low) / (high - low) * plot_h

    legend_rows = (len(players) + 1) // 2
    total_h = HEIGHT + 18 * legend_rows
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {total_h}" role="img" '
           f'class="chart" aria-label="{escape(label)}">']
    for y in range(low, high + 1, step):
        out.append(f'<line x1="{LEFT}" y1="{sy(y):.1f}" x2="{WIDTH - RIGHT}" y2="{sy(y):.1f}" stroke="#ccc" '
                   f'stroke-width="1"/>')
        out.append(f'<text x="{LEFT - 4}" y="{sy(y) + 4:.1f}" font-size="10" text-anchor="end" '
                   f'fill="#555">{escape(str(fmt(y)))}</text>')
    out.append(f'<text x="{LEFT}" y="{HEIGHT - 6}" font-size="10" fill="#555">{x0}</text>')
    out.append(f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" font-size="10" text-anchor="end" fill="#555">{x1}</text>')
    for i, player in enumerate(players):
        colour = COLOURS[i % len(COLOURS)]
        points = " ".join(f"{sx(p['seq']):.1f},{sy(p.get(player, 0)):.1f}" for p in series)
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        lx = 8 + (i % 2) * (WIDTH // 2)
        ly = HEIGHT + 14 + (i // 2) * 18
        out.append(f'<rect x="{lx}" y="{ly - 9}" width="12" height="12" fill="{colour}"/>')
        out.append(f'<text x="{lx + 18}" y="{ly + 1}" font-size="12">{escape(player)}</text>')
    out.append("</svg>")
    return "".join(out)


BAR_H, BAR_GAP, NAME_W = 26, 8, 110


def wins_chart(wins: list[tuple[str, int]], label: str = "") -> str:
    """An SVG bar chart of the games each player won (most first), each bar with its name and count."""
    if not wins:
        return ""
    most = max(count for _, count in wins) or 1
    plot_w = WIDTH - NAME_W - 40
    height = len(wins) * (BAR_H + BAR_GAP) + BAR_GAP
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" '
           f'class="chart" aria-label="{escape(label)}">']
    for i, (player, count) in enumerate(wins):
        y = BAR_GAP + i * (BAR_H + BAR_GAP)
        width = max(2.0, count / most * plot_w)
        colour = COLOURS[i % len(COLOURS)]
        # A long name is squeezed into its column rather than cut off at the chart's edge.
        fit = f' textLength="{NAME_W - 10}" lengthAdjust="spacingAndGlyphs"' if len(player) > 12 else ""
        out.append(f'<text x="{NAME_W - 6}" y="{y + BAR_H * 0.68:.1f}" font-size="14" text-anchor="end"{fit} '
                   f'fill="#1a1a1a">{escape(player)}</text>')
        out.append(f'<rect x="{NAME_W}" y="{y}" width="{width:.1f}" height="{BAR_H}" rx="4" fill="{colour}"/>')
        out.append(f'<text x="{NAME_W + width + 6:.1f}" y="{y + BAR_H * 0.68:.1f}" font-size="14" '
                   f'font-weight="700" fill="#1a1a1a">{count}</text>')
    out.append("</svg>")
    return "".join(out)
