/*
 * Pipes, as Linux's: a 64 KiB buffer between two files, one to read and
 * one to write. A read waits while the pipe is empty and someone may still
 * write, and finds the end (0) when nobody can; a write waits while the
 * pipe is full, and fails with -EPIPE when nobody will read. O_NONBLOCK
 * turns every wait into -EAGAIN.
 */
#pragma once

struct file;

/* Writes of up to this many bytes go in whole, never mixed with another
 * writer's (POSIX's name, Linux's value). */
#define PIPE_BUF 4096

/* A new pipe: its reading end (O_RDONLY) and writing end (O_WRONLY), each
 * with one reference, and O_NONBLOCK if flags has it. 0 or -ENOMEM. */
int pipe_create(unsigned flags, struct file **read_end, struct file **write_end);
