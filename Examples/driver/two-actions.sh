#!/bin/sh
# Drives presenter-host from a shell: two actions at once, one with a bar.
#   sh Examples/driver/two-actions.sh | presenter-host drive
# The protocol: docs/DRIVER.md.
echo '{"start": "fetch", "action": "fetch", "working": "Fetching the index..."}'
echo '{"start": "build", "action": "build", "working": "Building..."}'
for tenths in 2 4 6 8; do
    sleep 0.2
    echo "{\"progress\": \"build\", \"fraction\": 0.$tenths}"
done
echo '{"succeed": "fetch", "message": "Index fetched"}'
echo '{"succeed": "build", "message": "Built"}'
