#!/bin/sh
echo crlf
