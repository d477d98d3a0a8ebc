"""The lesson's example code: the read-along shows these lines, the test checks them."""


def greet(name: str) -> str:
    if name.strip() == "":
        raise ValueError("greet: name must not be empty")
    return f"Hello, {name}!"
