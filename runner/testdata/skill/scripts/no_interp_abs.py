#!/nonexistent/bin/python9
print("never")
