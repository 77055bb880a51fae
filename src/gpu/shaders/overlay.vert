#version 450
// Overlay geometry arrives already in clip space (expanded to screen-space quads on
// the CPU), so lines keep their width in pixels at any distance.
layout(location = 0) in vec4 inClip;
layout(location = 1) in vec4 inColor;
layout(location = 0) out vec4 outColor;

void main() {
    outColor = inColor;
    gl_Position = inClip;
}
