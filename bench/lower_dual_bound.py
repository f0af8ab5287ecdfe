#!/usr/bin/python3
"""lower_dual_bound.py -- how far the test-matrix lower certificate can reach on given rows
(issue 24; proofs-notes/lower-certificates.md section 3.5).  Uncertified numpy diagnostics.

For a row set S of A (k rows) the best test-matrix certificate over all W with ||W||_r1 <= 1
has the value  min { ||G||_r1 : A_S G = I }  (it certifies k iff eps times that is < 1), and by
weak duality, for every k x k matrix Y,
    ||G||_r1 >= tr(Y) / sum_j max_c |(A_S^T Y)_jc|.
Printed per k (S = the first k rows of a pivoted Gram-Schmidt order of the rows of A):
eps * that dual bound for Y = (A_S A_S^T)^{-1} (no test matrix certifies S when it is >= 1),
and eps * ||M^{-1}||_inf of two candidates: the block (argmax) test matrix of cert_lower.c and
an iteratively reweighted minimum-norm right inverse (certifies when < 1).

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


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    Q, K = np.load(sys.argv[1]), np.load(sys.argv[2])
    beta, eps = float(sys.argv[3]), float(sys.argv[4])
    ks = [int(a) for a in sys.argv[5:]] or [40, 50, 60, 63, 70, 80, 90, 100]
    A = softmax_rows(Q, K, beta)
    piv = pivoted_rows(A, max(ks))
    print("k\teps*dual_bound\teps*block\teps*irls")
    for k in ks:
        AS = A[piv[:k]]
        print("%d\t%.3f\t%.3f\t%.3f" % (k, eps * dual_bound(AS), eps * block_value(AS), eps * irls_value(AS)))


if __name__ == "__main__":
    main()
