"""What differs between the machines the pack runs on, and how the pack copes: the CPUs a process may use (`cpus`: the
sweep's default pool on a laptop, a CI runner or a hub user's cgroup) and log, exp and power with the same bits on
every CPU (`libm`: Intel with AVX-512 and AMD without give numpy's vector kernels different last bits)."""
