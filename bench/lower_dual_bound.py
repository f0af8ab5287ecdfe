#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""lower_dual_bound.py -- how far the test-matrix lower certificate can reach on given rows
(issue 24; proofs-notes/lower-certificates.md section 3.5).  Uncertified numpy diagnostics.

For a row set S of A (k rows) the best test-matrix certificate over all W with ||W||_r1 <= 1
has the value  min { ||G||_r1 : A_S G = I }  (it certifies k iff eps times that is < 1), and by
weak duality, for every k x k matrix Y,
    ||G||_r1 >= tr(Y) / sum_j max_c |(A_S^T Y)_jc|.
Printed per k (S = the first k rows of a pivoted Gram-Schmidt order of the rows of A):
eps * that dual bound for Y = (A_S A_S^T)^{-1} (no test matrix certifies S when it is >= 1),
and eps * ||M^{-1}||_inf of three candidates: the block (argmax) test matrix of cert_lower_blocks.c, an
iteratively reweighted minimum-norm right inverse (the guide lower_weighted_cap uses), and the
best of a Douglas-Rachford search for a right inverse G with every row's l1 norm <= 0.99 / eps
(alternating reflections between {A_S G = I} and that product of l1 balls, at most DR_ITERS
steps; a candidate certifies when < 1).  Douglas-Rachford finds a point of the intersection
whenever there is one (the sets are convex), so a value that stays above 1 suggests, without
proving it, that no test matrix certifies S.

    /usr/bin/python3 bench/lower_dual_bound.py Q.npy K.npy BETA EPS [k ...]
(Q, K from `attnrank generate --geometry ball --family uniform --d 3 --n N --seed 1|2`.)
"""
import sys
import numpy as np


def softmax_rows(Q, K, beta):
    L = beta * Q @ K.T
    L -= L.max(1, keepdims=True)
    A = np.exp(L)
    return A / A.sum(1, keepdims=True)


def pivoted_rows(A, count):
    R, piv = A.copy(), []
    nr = (R * R).sum(1)
    for _ in range(count):
        i = int(np.argmax(nr))
        piv.append(i)
        v = R[i] / np.sqrt(nr[i])
        R -= np.outer(R @ v, v)
        nr = (R * R).sum(1)
        nr[piv] = -1
    return np.array(piv)


def dual_bound(AS):
    Y = np.linalg.inv(AS @ AS.T)
    return np.trace(Y) / np.abs(AS.T @ Y).max(1).sum()


def block_value(AS):
    k, n = AS.shape
    W = np.zeros((n, k))
    W[np.arange(n), AS.argmax(0)] = 1
    return np.abs(np.linalg.inv(AS @ W)).sum(1).max()


def irls_value(AS, iters=60):
    n = AS.shape[1]
    w, best = np.ones(n), np.inf
    for _ in range(iters):
        Di = 1.0 / w
        G = (Di[:, None] * AS.T) @ np.linalg.inv((AS * Di) @ AS.T)
        r = np.abs(G).sum(1)
        best = min(best, r.max())
        w = w * (r / r.mean() + 1e-12)
        w /= w.mean()
    return best


DR_ITERS = 2000


def proj_l1_rows(X, t):
    """Each row of X projected onto the l1 ball of radius t (sort-based)."""
    A = np.abs(X)
    out = X.copy()
    idx = np.where(A.sum(1) > t)[0]
    if len(idx) == 0:
        return out
    U = -np.sort(-A[idx], axis=1)
    cs = np.cumsum(U, axis=1)
    j = np.arange(1, U.shape[1] + 1)
    cond = U - (cs - t) / j > 0
    rho = cond.shape[1] - 1 - np.argmax(cond[:, ::-1], axis=1)
    theta = (cs[np.arange(len(idx)), rho] - t) / (rho + 1)
    out[idx] = np.sign(X[idx]) * np.maximum(A[idx] - theta[:, None], 0)
    return out


def test_value(AS, X):
    """||(A_S W)^{-1}||_inf for W = X / ||X||_r1."""
    W = X / np.abs(X).sum(1).max()
    return np.abs(np.linalg.inv(AS @ W)).sum(1).max()


def dr_value(AS, eps, iters=DR_ITERS):
    k = AS.shape[0]
    Qm, R = np.linalg.qr(AS.T)                  # A_S = R^T Q^T: A_S G = I iff Q^T G = R^{-T}
    Rit = np.linalg.inv(R).T
    z = Qm @ Rit                                 # the minimum-Frobenius right inverse
    best, t = test_value(AS, z), 0.99 / eps
    for it in range(iters):
        x = proj_l1_rows(z, t)
        z = z + (2 * x - z) - Qm @ (Qm.T @ (2 * x - z) - Rit) - x
        if it % 10 == 9:
            best = min(best, test_value(AS, x))
            if eps * best < 1:
                break
    return best


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    Q, K = np.load(sys.argv[1]), np.load(sys.argv[2])
    beta, eps = float(sys.argv[3]), float(sys.argv[4])
    ks = [int(a) for a in sys.argv[5:]] or [40, 50, 60, 63, 70, 80, 90, 100]
    A = softmax_rows(Q, K, beta)
    piv = pivoted_rows(A, max(ks))
    print("k\teps*dual_bound\teps*block\teps*irls\teps*dr")
    for k in ks:
        AS = A[piv[:k]]
        print("%d\t%.3f\t%.3f\t%.3f\t%.3f" % (k, eps * dual_bound(AS), eps * block_value(AS), eps * irls_value(AS),
                                             eps * dr_value(AS, eps)), flush=True)


if __name__ == "__main__":
    main()
