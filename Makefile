# announce: build, demo, test and install.
PREFIX ?= /usr/local
SWIFT ?= swift
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1

.PHONY: setup build release demo test lint clean

## setup: install any missing Debian packages (needs root or sudo)
setup:
	@scripts/setup

## build: a debug build
build: setup
	$(SWIFT) build

## release: an optimised build in .build/release
release: setup
	$(SWIFT) build -c release

## demo: set up, build, and speak a sample announcement
demo:
	@scripts/demo

## test: set up, build, and run the whole test suite, real speech-dispatcher included
test:
	@scripts/test

clean:
	rm -rf .build
