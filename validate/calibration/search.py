"""One-dimensional fits by refining a grid: each round evaluates a few values at once (in
parallel, each one a gpusim run) and narrows to the best one's neighbours. The objective is
what the fit minimises (squared log ratios of simulated to measured cycles), so a monotone
response gives a unimodal objective and the refinement finds its minimum."""
import math


def snap(x, step, lo, hi):
    """x rounded to the parameter's resolution and kept in [lo, hi]."""
    v = round(round(x / step) * step, 10)
    return min(max(v, lo), hi)


def grid(lo, hi, points, step, geometric):
    """About `points` distinct values from lo to hi at resolution `step`, both ends included."""
    if geometric and lo > 0:
        raw = [lo * (hi / lo) ** (i / (points - 1)) for i in range(points)]
    else:
        raw = [lo + (hi - lo) * i / (points - 1) for i in range(points)]
    return sorted({snap(x, step, lo, hi) for x in raw})


def first_round(lo, hi, step, points=8):
    """The values minimise() evaluates first, for a caller that wants them run ahead."""
    return grid(lo, hi, points, step, lo > 0 and hi / lo > 8)


def minimise(evaluate, lo, hi, step, points=8, max_rounds=12):
    """The value in [lo, hi] (multiples of `step`) with the smallest objective, its objective,
    every value tried, and whether the best lies on an end of the range (the model cannot
    reach the measurement inside it). `evaluate` takes a list of values and returns their
    objectives in order (it may evaluate them in parallel)."""
    tried = {}

    def run(xs):
        todo = [x for x in xs if x not in tried]
        for x, y in zip(todo, evaluate(todo) if todo else []):
            tried[x] = y

    a, b = lo, hi
    for round_ in range(max_rounds):
        xs = first_round(lo, hi, step, points) if round_ == 0 else grid(a, b, points, step, False)
        run(xs)
        best = min((x for x in tried if a <= x <= b), key=lambda x: (tried[x], x))
        i = xs.index(best) if best in xs else min(range(len(xs)), key=lambda k: abs(xs[k] - best))
        a, b = xs[max(i - 1, 0)], xs[min(i + 1, len(xs) - 1)]
        if all(snap(a + k * step, step, lo, hi) in tried for k in range(int(round((b - a) / step)) + 1)):
            break
    best = min(tried, key=lambda x: (tried[x], x))
    at_edge = (best == lo or best == hi) and len(tried) > 1
    return best, tried[best], dict(sorted(tried.items())), at_edge


def choose(evaluate, candidates):
    """The candidate with the smallest objective (for structural choices: a policy, a flag)."""
    scores = evaluate(list(candidates))
    i = min(range(len(candidates)), key=lambda k: (scores[k], k))
    return candidates[i], scores[i], dict(zip(map(str, candidates), scores))


def objective(measured, simulated):
    """Mean squared log ratio of simulated to measured cycles over a fit's target launches."""
    terms = [math.log(s / m) ** 2 for m, s in zip(measured, simulated) if m > 0 and s and s > 0]
    if len(terms) != len(measured):
        return float("inf")
    return sum(terms) / len(terms)
