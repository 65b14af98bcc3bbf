# No #! line: runs through python3 because of its extension.
print("plain python")
