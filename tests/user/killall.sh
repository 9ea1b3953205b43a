# killall: kill -9 -1 from a program signals every process but itself and
# the first program, as Linux spares init; this shell is that (init=), so it lives on
# to say so, and its child does not.
sleep 100 &
kill -9 -1
wait $!
echo "killall: the child ended with status $?"
echo "killall: the first program lives on"
