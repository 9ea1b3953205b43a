# fillfs: the line that made fuzzlines seed 1796514337 fail, reduced.
# `yes ... >> file &` from `sh -c` goes on writing after the shell has
# gone. Once it had taken every page, no program could start (execve said
# ENOMEM). Files now hold at most half of memory, tmpfs's default: yes
# ends with ENOSPC, as it does on Linux's tmpfs, and programs still start.
yes cd /tmp >> /tmp/fillfs &
wait $!
echo "fillfs: yes ended with status $?"
/bin/echo "fillfs: a program starts"
: > /tmp/fillfs
echo alive > /tmp/alive && cat /tmp/alive
